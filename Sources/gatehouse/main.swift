import Foundation

// Entry point only: every command lives in its own file, outside the main actor.
let arguments = Array(CommandLine.arguments.dropFirst())
Command.run(arguments)
