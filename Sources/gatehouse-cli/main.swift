import Foundation

// Entry point only; commands live in CLI.swift, outside the main actor.
CLI.main(Array(CommandLine.arguments.dropFirst()))
