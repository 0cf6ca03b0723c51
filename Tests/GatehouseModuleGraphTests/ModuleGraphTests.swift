import Foundation
import GatehouseTesting
import Testing

/// The module graph points one way (DESIGN.md, "Package layout"), read from the manifest as
/// SwiftPM itself resolves it and from every source file's imports, so that a dependency added
/// by hand to one target, or an import that only compiles through another module, fails here.
@Suite struct ModuleGraphTests {
    static let graph: Result<PackageGraph, any Error> = Result { try PackageGraph.load() }

    static let sdk: Set<String> = [
        "GatehouseClientCore", "GatehouseVerification", "GatehouseAuth", "GatehousePurchases", "GatehouseWorkflows", "GatehouseManagedAPI",
        "GatehousePossession", "GatehousePurchasesTesting",
    ]
    static let contract: Set<String> = ["GatehouseWire", "GatehouseFormats", "GatehouseRules"]
    static let transportAndDrivers: Set<String> = [
        "GatehouseWire", "GatehouseHTTP", "CMicroHTTPD", "GatehouseSQLite", "CSQLite", "GatehousePostgres", "CPostgres", "GatehouseOutbound", "CCurl",
        "GatehouseServer",
    ]

    @Test func theLeavesDependOnNothingButEachOther() throws {
        let graph = try Self.graph.get()
        #expect(graph.direct("GatehouseFormats") == [])
        #expect(graph.direct("GatehouseRules") == ["GatehouseFormats"])
        #expect(graph.direct("GatehouseWire") == ["GatehouseFormats", "GatehouseRules"])
    }

    /// The leaves compile with Swift 6's full data-race checking.
    @Test func theLeavesAreInSwift6Mode() throws {
        let graph = try Self.graph.get()
        let leaves = [
            "GatehouseFormats", "GatehouseRules", "GatehouseWire", "GatehouseDatabase", "GatehouseCrypto", "GatehouseSQLite", "GatehousePostgres",
            "GatehouseClientCore",
        ]
        for leaf in leaves { #expect(graph.targets[leaf]?.languageMode == "6", "\(leaf)") }
    }

    @Test func enginesSpeakTheirOwnTypesOverNoTransportOrDriver() throws {
        let graph = try Self.graph.get()
        let engines = graph.targets.keys.filter { $0.hasPrefix("Gatehouse") && $0.hasSuffix("Engine") }
        #expect(engines.count == 7)
        for engine in engines {
            #expect(graph.closure(engine).intersection(Self.transportAndDrivers) == [], "\(engine)")
        }
    }

    @Test func theHTTPServerAndCryptoKnowNoVendorsWireTypes() throws {
        let graph = try Self.graph.get()
        for module in ["GatehouseHTTP", "GatehouseCrypto", "GatehouseDatabase", "GatehouseCore"] {
            #expect(!graph.closure(module).contains("GatehouseWire"), "\(module)")
        }
    }

    @Test func onlyCryptoTouchesOpenSSL() throws {
        let graph = try Self.graph.get()
        let users = graph.targets.keys.filter { graph.direct($0).contains("COpenSSL") }
        #expect(users == ["GatehouseCrypto"])
    }

    @Test func theSDKImportsNothingOfTheServer() throws {
        let graph = try Self.graph.get()
        for module in Self.sdk {
            #expect(graph.closure(module).subtracting(Self.sdk).subtracting(Self.contract) == [], "\(module)")
        }
    }

    @Test func engineTestsAndTheCLINeverLinkTheHTTPServer() throws {
        let graph = try Self.graph.get()
        let subjects = graph.targets.keys.filter { $0.hasSuffix("EngineTests") } + ["gatehouse-cli"]
        #expect(subjects.count == 8)
        for subject in subjects {
            #expect(!graph.closure(subject).contains("CMicroHTTPD"), "\(subject)")
        }
    }

    /// An import a target does not declare compiles only by accident (through another module's
    /// dependencies), and hides an edge of the graph.
    @Test func everyImportIsADeclaredDependency() throws {
        let graph = try Self.graph.get()
        let platform: Set<String> = [
            "Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "Testing", "XCTest", "Security",
            "StoreKit", "AuthenticationServices", "CryptoKit", "os", "Synchronization", "PackageDescription", "UIKit", "SwiftUI", "Network",
        ]
        for (name, target) in graph.targets where target.type != "system" {
            let undeclared = try graph.imports(of: name).subtracting(platform).subtracting(graph.direct(name)).subtracting([name])
            #expect(undeclared == [], "\(name) imports \(undeclared.sorted()) without depending on them")
        }
    }

    /// An import of our own modules inside `#if canImport(FoundationNetworking)` (or Glibc)
    /// compiles on Linux and breaks the build on Apple platforms, where the condition is false.
    @Test func ourModulesAreImportedUnconditionally() throws {
        let graph = try Self.graph.get()
        for (name, target) in graph.targets where target.type != "system" {
            #expect(try graph.conditionalImports(of: name) == [], "\(name)")
        }
    }
}

/// The package's targets as `swift package dump-package` describes them.
struct PackageGraph {
    struct Target {
        let type: String
        let path: String
        let dependencies: [String]
        /// The target's own `swiftLanguageMode`, when it sets one.
        var languageMode: String? = nil
    }

    let root: URL
    let targets: [String: Target]

    /// Reads the manifest with a scratch folder of its own, so it never waits on the lock of the
    /// build that runs this test.
    static func load() throws -> PackageGraph {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-manifest-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, output) = try Command.run(
            "/usr/bin/env", ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"])
        guard status == 0, case let manifest as [String: Any] = try JSONSerialization.jsonObject(with: output),
            let entries = manifest["targets"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        var targets: [String: Target] = [:]
        for entry in entries {
            guard let name = entry["name"] as? String, let type = entry["type"] as? String else { continue }
            let dependencies = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            let folder = type == "test" ? "Tests" : "Sources"
            let modes = (entry["settings"] as? [[String: Any]] ?? []).compactMap { setting in
                ((setting["kind"] as? [String: Any])?["swiftLanguageMode"] as? [String: Any])?["_0"] as? String
            }
            targets[name] = Target(
                type: type, path: entry["path"] as? String ?? "\(folder)/\(name)", dependencies: dependencies, languageMode: modes.last)
        }
        return PackageGraph(root: root, targets: targets)
    }

    func direct(_ name: String) -> Set<String> { Set(targets[name]?.dependencies ?? []) }

    /// Everything `name` links, directly or through its dependencies.
    func closure(_ name: String) -> Set<String> {
        var seen: Set<String> = []
        var next = Array(direct(name))
        while let module = next.popLast() {
            if seen.insert(module).inserted { next += direct(module) }
        }
        return seen
    }

    /// `file: import` for each import of a Gatehouse module inside a Linux-only `#if` block.
    func conditionalImports(of name: String) throws -> [String] {
        guard let target = targets[name] else { return [] }
        var found: [String] = []
        for file in swiftFiles(root.appendingPathComponent(target.path)) {
            // The conditions of the open `#if` blocks; a whole file for Apple platforms only is fine.
            var conditions: [Substring] = []
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                if line.hasPrefix("#if") { conditions.append(line) }
                if line.hasPrefix("#endif") { _ = conditions.popLast() }
                let linuxOnly = conditions.contains { ["FoundationNetworking", "Glibc", "Musl", "os(Linux)"].contains(where: $0.contains) }
                if linuxOnly, line.hasPrefix("import Gatehouse") || line.hasPrefix("@testable import Gatehouse") {
                    found.append("\(file.lastPathComponent): \(line)")
                }
            }
        }
        return found
    }

    func swiftFiles(_ folder: URL) -> [URL] {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "swift" }
    }

    /// The modules the target's Swift files import.
    func imports(of name: String) throws -> Set<String> {
        guard let target = targets[name] else { return [] }
        let folder = root.appendingPathComponent(target.path)
        var found: Set<String> = []
        for file in swiftFiles(folder) {
            // Swift imports start their line; an indented one is inside a string (a Python script).
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix(" ") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ ["@testable", "public", "package", "internal", "@_exported"].contains($0) })
                else { continue }
                // `import struct Module.Type` names the module second.
                let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "typealias", "var", "let"]
                let module = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
                found.insert(String(module.split(separator: ".").first ?? ""))
            }
        }
        return found
    }
}
