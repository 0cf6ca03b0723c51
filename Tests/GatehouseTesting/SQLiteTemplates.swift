import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseSQLite
import Synchronization

/// Migrated SQLite files, one per list of migrations, that tests copy instead of migrating.
///
/// Migrating a fresh file runs every migration in a transaction of its own, about a tenth of
/// a second; a run makes several hundred. The first test that asks for a list migrates a
/// template (closed, so the WAL is folded into the one file) and every test copies it, a
/// millisecond. The templates are removed when the test process exits.
final class SQLiteTemplates: Sendable {
    static let shared = SQLiteTemplates()

    private let templates = Mutex<[String: String]>([:])

    private init() {
        atexit { SQLiteTemplates.shared.removeAll() }
    }

    /// A new database file holding `migrations`, and nothing else; `close()` deletes it.
    func copy(_ migrations: [Migration], clock: any Clock) throws -> TestDatabase {
        let template = try self.template(for: migrations, clock: clock)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: template, toPath: path)
        let files = [path, path + "-wal", path + "-shm"]
        do {
            // Private, as the server makes its own: a server started on it would otherwise
            // tighten it and warn. SQLite gives the WAL and SHM files the database's mode.
            _ = chmod(path, 0o600)
            let database = try SQLiteDatabase(path: path)
            return TestDatabase(database, url: "sqlite://" + path) {
                for file in files { try? FileManager.default.removeItem(atPath: file) }
            }
        } catch {
            for file in files { try? FileManager.default.removeItem(atPath: file) }
            throw error
        }
    }

    /// The template for `migrations`, migrated now by the first caller; later callers for
    /// the same list wait for it.
    private func template(for migrations: [Migration], clock: any Clock) throws -> String {
        let key = migrations.key
        return try templates.withLock { templates in
            if let made = templates[key] { return made }
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("gatehouse-template-\(UUID().uuidString).sqlite").path
            let database = try SQLiteDatabase(path: path)
            do {
                _ = try DatabaseMigrator(migrations: migrations, now: { clock.now }).migrate(database)
                database.close()
            } catch {
                database.close()
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
            templates[key] = path
            return path
        }
    }

    private func removeAll() {
        templates.withLock { templates in
            for path in templates.values { try? FileManager.default.removeItem(atPath: path) }
            templates.removeAll()
        }
    }
}
