import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseServer
import GatehouseWire

/// `gatehouse admin …`: operator tasks straight against the database, printing JSON.
enum Admin {
    static let commandFlags: Set<String> = ["name", "tenant", "label", "application", "key"]

    static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 2 else { Command.fail(Command.usage) }
        let (options, settingFlags) = split(Array(arguments.dropFirst(2)))
        let settings = Command.settings(settingFlags)
        let database = try GatehouseApp.openDatabase(settings)
        defer { database.close() }
        _ = try DatabaseMigrator(migrations: GatehouseApp.migrations, now: { Date() }).migrate(database)
        let directory = TenantDirectory(environment: .live(database: database, logger: .silent, http: UnimplementedOutboundHTTP()))
        func option(_ name: String) -> String {
            guard let value = options[name] else { Command.fail("missing --\(name)\n\(Command.usage)") }
            return value
        }
        switch (arguments[0], arguments[1]) {
        case ("tenant", "create"): try output(AdminWire.Tenant(await directory.createTenant(name: option("name"))))
        case ("tenant", "list"): try output(AdminWire.List(data: await directory.tenants().map(AdminWire.Tenant.init)))
        case ("application", "create"):
            try output(AdminWire.Application(await directory.createApplication(tenantID: option("tenant"), name: option("name"))))
        case ("key", "create"):
            let issued = try await directory.issueKey(tenantID: option("tenant"), applicationID: options["application"], label: option("label"))
            try output(AdminWire.IssuedKey(key: AdminWire.Key(issued.key), secret: issued.secret))
        case ("key", "list"): try output(AdminWire.List(data: await directory.keys(tenantID: option("tenant")).map(AdminWire.Key.init)))
        case ("key", "revoke"):
            try await directory.revokeKey(tenantID: option("tenant"), keyID: option("key"))
            print("revoked")
        case ("token", "create"): print(try await directory.issueAdminToken(label: option("label")))
        default: Command.fail("unknown admin command\n\(Command.usage)")
        }
    }

    /// Separates this command's own options from server settings such as `--data-dir`.
    static func split(_ arguments: [String]) -> (options: [String: String], settings: [String]) {
        var options: [String: String] = [:]
        var settings: [String] = []
        var index = 0
        while index < arguments.count {
            let name = arguments[index].hasPrefix("--") ? String(arguments[index].dropFirst(2)) : ""
            if commandFlags.contains(name), index + 1 < arguments.count {
                options[name] = arguments[index + 1]
                index += 2
            } else {
                settings.append(arguments[index])
                index += 1
            }
        }
        return (options, settings)
    }

    static func output<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
