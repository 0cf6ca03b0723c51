import Foundation
import GatehouseDatabase
import GatehouseServer

/// `gatehouse migrate`: applies pending migrations and prints their ids.
enum Migrate {
    static func run(_ flags: [String]) async throws {
        let settings = Command.settings(flags)
        let database = try GatehouseApp.openDatabase(settings)
        defer { database.close() }
        let applied = try DatabaseMigrator(migrations: GatehouseApp.migrations, now: { Date() }).migrate(database)
        print(applied.isEmpty ? "database is up to date" : applied.map { "applied \($0)" }.joined(separator: "\n"))
    }
}
