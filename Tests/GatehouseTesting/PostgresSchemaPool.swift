import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres
import Synchronization

/// Migrated PostgreSQL schemas kept between tests, one idle list per list of migrations.
///
/// Migrating a fresh schema replays every migration, hundreds of DDL statements, and dropping
/// it afterwards invalidates as many catalogue entries: a full run made 402 schemas, each
/// 0.2–0.6 s of PostgreSQL's work. Emptying a schema a test has finished with costs a tenth
/// of that, so a finished test's schema is emptied and handed to the next test that asks
/// for the same migrations.
///
/// A schema comes back only when nothing of the old test can still reach it and it is as
/// migrated: its connections are ended first (each carries the schema's name as its
/// `application_name`), so no late write lands in the next test's data, and a schema whose
/// catalogue changed (a test that dropped a table to make a write fail) is dropped instead.
///
/// The idle schemas outlive the run: `scripts/test-postgres.sh` throws the whole cluster
/// away, and on a database of one's own they are the `gh_pool_…` schemas.
package final class PostgresSchemaPool: Sendable {
    static let shared = PostgresSchemaPool()

    package init() {}

    /// A migrated schema and what it looked like when it was: its tables (each emptied on
    /// return) and a fingerprint of its catalogue.
    struct Schema: Sendable {
        let name: String
        let tables: [String]
        let fingerprint: String
    }

    private let idle = Mutex<[String: [Schema]]>([:])
    private let admin = Mutex<PostgresDatabase?>(nil)

    /// An emptied schema migrated with `migrations`, or a fresh one migrated now.
    package func checkout(base: String, migrations: [Migration], clock: any Clock) throws -> TestDatabase {
        let key = migrations.key
        let reused = idle.withLock { $0[key]?.popLast() }
        let schema = try reused ?? migrateFresh(base: base, migrations: migrations, clock: clock)
        let url = Self.url(base: base, schema: schema.name)
        do {
            return TestDatabase(try PostgresDatabase(url: url, poolSize: 8), url: url) { [self] in
                recycle(schema, key: key, base: base)
            }
        } catch {
            recycle(schema, key: key, base: base)
            throw error
        }
    }

    /// The URL of `schema` on the server at `base`: its search path, and its name as every
    /// connection's `application_name`, by which ``recycle`` finds and ends them (fresh
    /// schemas of ``TestDatabase`` carry it too).
    static func url(base: String, schema: String) -> String {
        base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)&application_name=\(schema)"
    }

    private func migrateFresh(base: String, migrations: [Migration], clock: any Clock) throws -> Schema {
        let name = "gh_pool_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try adminDatabase(base)
        try admin.writeBlocking { try $0.executeScript("CREATE SCHEMA \(name)") }
        do {
            let url = Self.url(base: base, schema: name)
            let database = try PostgresDatabase(url: url, poolSize: 1)
            defer { database.close() }
            _ = try DatabaseMigrator(migrations: migrations, now: { clock.now }).migrate(database)
            let tables = try admin.readBlocking { conn in
                try conn.query(
                    "SELECT tablename FROM pg_tables WHERE schemaname = ? AND tablename <> ? ORDER BY tablename",
                    [.text(name), .text(DatabaseMigrator.tableName)]
                ).map { try $0.get("tablename", as: String.self) }
            }
            return Schema(name: name, tables: tables, fingerprint: try fingerprint(of: name, admin))
        } catch {
            try? admin.writeBlocking { try $0.executeScript("DROP SCHEMA \(name) CASCADE") }
            throw error
        }
    }

    /// Ends the schema's connections, then empties it and keeps it, or drops it when its
    /// catalogue is no longer as migrated. Waits on the database: ``TestDatabase/close()``
    /// calls it on a test thread.
    private func recycle(_ schema: Schema, key: String, base: String) {
        guard let admin = try? adminDatabase(base) else { return }
        do {
            // Each end is waited for (up to 10 s): a transaction cut off is rolled back. A
            // backend that left on its own meanwhile only draws a warning, kept quiet here.
            try admin.writeBlocking { conn in
                try conn.execute("SET LOCAL client_min_messages = error", [])
                _ = try conn.query(
                    "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()",
                    [.text(schema.name)])
            }
            let lingering = try admin.readBlocking { conn in
                try conn.queryOne(
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()",
                    [.text(schema.name)]
                )?.get("n", as: Int.self) ?? 0
            }
            guard lingering == 0 else { throw TestSetupError("schema \(schema.name) still has connections") }
            guard try fingerprint(of: schema.name, admin) == schema.fingerprint else {
                throw TestSetupError("schema \(schema.name) was changed by its test")
            }
            // Every table at once, with the foreign keys' triggers off (the session is
            // PostgreSQL's superuser), so the order of the deletes does not matter. `DELETE`,
            // not `TRUNCATE`, which gives every table and index a new file and costs as much
            // as dropping the schema.
            try admin.writeBlocking { conn in
                try conn.executeScript(
                    (["SET LOCAL session_replication_role = replica"]
                        + schema.tables.map { "DELETE FROM \(schema.name).\($0)" }).joined(separator: "; ")
                )
            }
            idle.withLock { $0[key, default: []].append(schema) }
        } catch {
            try? admin.writeBlocking { try $0.executeScript("DROP SCHEMA \(schema.name) CASCADE") }
        }
    }

    /// The schema's relations, columns and constraints, counted: a table or column dropped
    /// or added, or an index made, changes it.
    private func fingerprint(of schema: String, _ admin: PostgresDatabase) throws -> String {
        try admin.readBlocking { conn in
            let row = try conn.query(
                """
                SELECT (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid)
                    || '/' || (SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                               WHERE c.relnamespace = n.oid AND a.attnum > 0 AND NOT a.attisdropped)
                    || '/' || (SELECT count(*) FROM pg_constraint k WHERE k.connamespace = n.oid) AS fingerprint
                FROM pg_namespace n WHERE n.nspname = ?
                """,
                [.text(schema)]
            )
            guard let fingerprint = try row.first?.get("fingerprint", as: String.self) else {
                throw TestSetupError("schema \(schema) is gone")
            }
            return fingerprint
        }
    }

    /// One small pool of connections to the server itself, for every schema's making,
    /// emptying and dropping.
    private func adminDatabase(_ base: String) throws -> PostgresDatabase {
        try admin.withLock { admin in
            if let admin { return admin }
            let made = try PostgresDatabase(url: base, poolSize: 2)
            admin = made
            return made
        }
    }
}
