import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseWire

extension CLI {
    static let passkeysUsage = """
        usage: gatehouse-cli passkeys config [--rp-id HOST --rp-name NAME --origin ORIGIN … --ios-app TEAMID.bundle.id … --enabled true|false]
                                             (operator: the tenant's relying party; without flags, shows it)
               gatehouse-cli passkeys list | rename ID NAME | delete ID   (the account signed in with gatehouse-cli auth verify)
        Passkeys are made on a device (the SDK's PasskeyAuthenticator); delete needs a sign-in of the last ten minutes.
        option: --tenant ID (config; default: the development tenant)
        """

    static func passkeys(_ words: [String], url: URL, admin: APIClient, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) async throws {
        // Only config takes flags: the account's commands name a passkey and nothing else.
        let options = Options(
            Array(words.dropFirst()), known: words.first == "config" ? ["tenant", "rp-id", "rp-name", "origin", "ios-app", "enabled"] : [],
            takes: ["config": 0, "list": 0, "rename": 2, "delete": 1][words.first ?? ""])
        let arguments = options.positional
        switch words.first {
        case "config":
            guard let tenant = options.value("tenant") ?? credentials?["tenantId"] as? String else { fail(passkeysUsage) }
            let store = DatacoveWire.Endpoints.Store.self
            guard let rpID = options.value("rp-id") else {
                try output(await admin.call(store.passkeyConfig, ["tenantId": tenant]))
                return
            }
            let enabled: Bool
            switch options.value("enabled") ?? "true" {
            case "true", "yes": enabled = true
            case "false", "no": enabled = false
            default: fail("--enabled must be true or false")
            }
            let config = DatacoveWire.PasskeyConfig(
                rpId: rpID, rpName: options.value("rp-name") ?? rpID, origins: options.all("origin").isEmpty ? ["https://" + rpID] : options.all("origin"),
                iosAppIds: options.all("ios-app"), enabled: enabled)
            try output(await admin.call(store.putPasskeyConfig, ["tenantId": tenant], body: config))
        case "list":
            let passkeys = try await authClient(url: url, credentials: credentials, logger: logger).0.passkeys()
            if passkeys.isEmpty { print("no passkeys: make one on a device (the SDK's registerPasskey)") }
            for passkey in passkeys {
                print("\(passkey.id)  \(passkey.name)  created \(passkey.createdAt)  last used \(passkey.lastUsedAt ?? "never")\(passkey.backedUp ? "  synced" : "")")
            }
        case "rename":
            guard arguments.count == 2 else { fail(passkeysUsage) }
            let renamed = try await authClient(url: url, credentials: credentials, logger: logger).0.renamePasskey(id: arguments[0], name: arguments[1])
            print("renamed: \(renamed.name)")
        case "delete":
            guard arguments.count == 1 else { fail(passkeysUsage) }
            try await authClient(url: url, credentials: credentials, logger: logger).0.deletePasskey(id: arguments[0])
            print("deleted")
        default:
            fail(passkeysUsage)
        }
    }
}
