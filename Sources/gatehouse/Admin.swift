import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats
import GatehouseDatabase
import GatehouseServer
import GatehouseWire

/// `gatehouse admin …`: operator tasks straight against the database, printing JSON.
enum Admin {
    static let commandFlags: Set<String> = ["name", "tenant", "label", "application", "key", "email", "role"]

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
        case ("operator", "create"): try await createOperator(database: database, settings: settings, email: option("email"), role: options["role"])
        default: Command.fail("unknown admin command\n\(Command.usage)")
        }
    }

    /// Creates a console operator. The password comes from `OPERATOR_PASSWORD` (never the
    /// command line, which other users see), else one is made; either way it and the TOTP
    /// URI are printed once and never again.
    static func createOperator(database: any Database, settings: Settings, email: String, role: String?) async throws {
        guard let role = ConsoleOperator.Role(rawValue: role ?? "viewer") else { Command.fail("--role must be viewer or admin") }
        guard let secrets = try GatehouseApp.consoleSecrets(settings, logger: .silent) else {
            Command.fail("no console-secret-key: set GATEHOUSE_CONSOLE_SECRET_KEY (it seals the operators' second factors)")
        }
        let given = ProcessInfo.processInfo.environment["OPERATOR_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let password = given ?? Base64URL.encode(SystemRandom().bytes(18))
        let engine = ConsoleEngine(
            environment: .live(database: database, logger: .silent, http: UnimplementedOutboundHTTP()), secrets: secrets,
            passwordCost: try GatehouseApp.consolePasswordCost(settings))
        let created: NewConsoleOperator
        do {
            created = try await engine.createOperator(email: email, role: role, password: password)
        } catch let error as ConsoleError {
            switch error {
            case .invalidEmail: Command.fail("--email must be an email address")
            case .weakPassword: Command.fail("OPERATOR_PASSWORD must be at least 12 characters (and at most 200 bytes)")
            case .emailTaken: Command.fail("an operator with this email exists")
            case .signInRefused, .locked, .cannotRemoveSelf, .notFound, .busy, .confirmationNeeded, .passkeyRefused, .codeRefused: Command.fail("\(error)")
            }
        }
        var shown: [String: String] = [
            "id": created.account.id, "email": created.account.email, "role": created.account.role.rawValue, "totpURI": created.totpURI,
        ]
        if given == nil { shown["password"] = password }
        print(String(decoding: try JSONSerialization.data(withJSONObject: shown, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]), as: UTF8.self))
        print("shown once: add the TOTP URI to an authenticator app\(given == nil ? " and keep the password" : "")")
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
