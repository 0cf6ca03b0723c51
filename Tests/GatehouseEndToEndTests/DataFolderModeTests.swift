import Foundation
import GatehouseCrypto
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The data folder opens every tenant: it is 0700 and its database, keys and credentials
/// 0600, on the first start and on every one after it.
@Suite struct DataFolderModeTests {
    static let privateFiles = [
        "gatehouse.sqlite", "gatehouse.sqlite-wal", "gatehouse.sqlite-shm", "managed-api-secret.key", "possession-secret.key",
        "dev-credentials.json",
    ]

    @Test func aFreshDataFolderIsPrivate() async throws {
        let folder = NSTemporaryDirectory() + "gatehouse-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = try await Self.start(folder)
        #expect(try Self.mode(folder) == 0o700)
        for file in Self.privateFiles {
            #expect(try Self.mode(folder + "/" + file) == 0o600, "\(file)")
        }
        #expect(!live.logs.lines.contains { $0.contains("open to other users") })
        await live.stop()
        live.app.environment.database.close()
    }

    /// A restore or a `chmod` widened them: the next start tightens each and says which.
    @Test func aStartTightensWhatWasWidenedAndWarns() async throws {
        let folder = NSTemporaryDirectory() + "gatehouse-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await Self.start(folder)
        await first.stop()
        // The first server's database stays open, so its WAL and SHM files stay to be checked.
        defer { first.app.environment.database.close() }
        #expect(chmod(folder, 0o755) == 0)
        for file in Self.privateFiles { #expect(chmod(folder + "/" + file, 0o644) == 0, "\(file)") }

        let second = try await Self.start(folder)
        #expect(second.credentials.adminToken == first.credentials.adminToken)
        #expect(try Self.mode(folder) == 0o700)
        let warnings = second.logs.lines.filter { $0.contains("open to other users; tightened it") }
        #expect(warnings.contains { $0.contains(#""path":"\#(folder)""#) && $0.contains(#""was":"0755""#) && $0.contains(#""now":"0700""#) })
        for file in Self.privateFiles {
            #expect(try Self.mode(folder + "/" + file) == 0o600, "\(file)")
            #expect(warnings.contains { $0.contains(#""path":"\#(folder)/\#(file)""#) && $0.contains(#""was":"0644""#) }, "\(file)")
        }
        await second.stop()
        second.app.environment.database.close()
    }

    private static func start(_ folder: String) async throws -> LiveServer {
        try await LiveServer.start {
            $0.dataDir = folder
            $0.databaseURL = ""
        }
    }

    private static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }
}

/// Development keys made by processes starting at once: one key, the first to land.
@Suite struct DevelopmentKeyTests {
    @Test func concurrentFirstStartsAgreeOnOneKey() async throws {
        let folder = NSTemporaryDirectory() + "gatehouse-keys-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = Settings()
        settings.dataDir = folder
        let boxes = try await withThrowingTaskGroup(of: SecretBox?.self) { group in
            for _ in 0..<12 { group.addTask { try GatehouseApp.consoleSecrets(settings, logger: .silent) } }
            return try await group.reduce(into: [SecretBox?]()) { $0.append($1) }
        }
        let sealed = try #require(boxes.first??.seal("a TOTP secret", context: "c"))
        #expect(boxes.allSatisfy { $0?.open(sealed, context: "c") == "a TOTP secret" })
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.filter { $0.hasPrefix("console-secret.key") } == ["console-secret.key"], "\(files)")
        #expect((try FileManager.default.attributesOfItem(atPath: folder + "/console-secret.key")[.posixPermissions] as? Int) == 0o600)
    }
}
