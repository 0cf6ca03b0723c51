import Foundation
import GatehouseClientCore
import GatehouseManagedAPI
import GatehouseWire

/// `gatehouse-cli managed-apis …`: the signed-in account's managed APIs through
/// GatehouseManagedAPI (OAuth 2.0 consent through a loopback redirect, RFC 8252), and the
/// operator's definitions (admin token).
extension CLI {
    static let managedAPIsUsage = """
        usage: gatehouse-cli managed-apis list | show NAME
               gatehouse-cli managed-apis fetch NAME /relative/path [--method M] [--header 'Name: value' …] [--body TEXT]
                                                [--prompt always|if-required|never]
        operator (admin token):
               gatehouse-cli managed-apis definitions | define FILE.json | remove NAME
        option: --tenant ID (default: the development tenant)
        state: tokens in $GATEHOUSE_MANAGED_API_DIR (default data/cli-managed-apis), beside the definitions last synced
        """

    static func managedAPIs(
        _ words: [String], url: URL, admin: APIClient, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?
    ) async throws {
        let options = Options(
            Array(words.dropFirst()), known: ["tenant", "method", "header", "body", "prompt"],
            takes: ["show": 1, "fetch": 2, "define": 1, "remove": 1][words.first ?? ""] ?? 0)
        let arguments = options.positional
        if let tenant = options.value("tenant") ?? credentials?["tenantId"] as? String,
            try await managedAPIsOperator(words.first, arguments, admin: admin, tenant: tenant)
        {
            return
        }
        let service = try managedAPIService(url: url, credentials: credentials, logger: logger)
        switch words.first {
        case "list":
            try? await service.sync()
            for map in try await service.managedAPIs() {
                print(map.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "  "))
            }
        case "show":
            guard arguments.count == 1 else { fail(managedAPIsUsage) }
            try? await service.sync()
            guard let map = try await service.managedAPI(name: arguments[0]) else { fail("no managed API \(arguments[0])") }
            try output(map)
        case "fetch":
            guard arguments.count == 2 else { fail(managedAPIsUsage) }
            var fetch = ManagedApiFetchOptions()
            fetch.method = options.value("method")?.uppercased() ?? "GET"
            for header in options.all("header") {
                guard let colon = header.firstIndex(of: ":") else { fail("--header takes 'Name: value'") }
                fetch.headers[String(header[..<colon]).trimmingCharacters(in: .whitespaces)] =
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            fetch.body = options.value("body")
            switch options.value("prompt") ?? "if-required" {
            case "always": fetch.prompt = .always
            case "if-required": fetch.prompt = .ifRequired
            case "never": fetch.prompt = .never
            default: fail("--prompt must be always, if-required or never")
            }
            let response = try await service.fetch(name: arguments[0], relativeUrl: arguments[1], options: fetch)
            FileHandle.standardError.write(Data("HTTP \(response.status)\n".utf8))
            for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { FileHandle.standardError.write(Data("\(name): \(value)\n".utf8)) }
            if let text = response.rawBody { print(text) }
            if !response.ok { exit(response.status >= 500 ? ExitCode.unavailable.rawValue : ExitCode.refused.rawValue) }
        default:
            fail(managedAPIsUsage)
        }
    }

    /// The wiring a desktop or Linux app writes: file-backed tokens and definitions, consent
    /// in the user's browser with the redirect caught on loopback.
    static func managedAPIService(url: URL, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) throws -> ManagedAPIService {
        let auth = authClient(url: url, credentials: credentials, logger: logger).0
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["GATEHOUSE_MANAGED_API_DIR"] ?? "data/cli-managed-apis")
        let consent = try LoopbackConsentPresenter { authorizationURL in
            FileHandle.standardError.write(Data("Open this address to sign in, then come back:\n\(authorizationURL.absoluteString)\n".utf8))
        }
        return ManagedAPIService(
            baseURL: url.appendingPathComponent("api"), tokenStore: FileManagedAPITokenStore(directory: folder.appendingPathComponent("tokens")),
            definitionCache: FileDefinitionCache(url: folder.appendingPathComponent("definitions.json")), consent: consent,
            redirectURI: consent.redirectURI
        ) { rejected in try await auth.session.validAccessToken(rejected: rejected) }
    }

    /// The operator's subcommands; false when `command` is not one of them.
    static func managedAPIsOperator(_ command: String?, _ arguments: [String], admin: APIClient, tenant: String) async throws -> Bool {
        let tenantPath = ["tenantId": tenant]
        switch command {
        case "definitions":
            try output(try await admin.call(AdminWire.Endpoints.listManagedAPIs, tenantPath))
        case "define":
            guard arguments.count == 1 else { fail(managedAPIsUsage) }
            let definition = try JSONDecoder().decode(AdminWire.ManagedAPIDefinition.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[0])))
            guard let name = definition.name else { fail("the definition needs a name") }
            try output(try await admin.call(AdminWire.Endpoints.putManagedAPI, tenantPath.merging(["name": name]) { $1 }, body: definition))
        case "remove":
            guard arguments.count == 1 else { fail(managedAPIsUsage) }
            try await admin.call(AdminWire.Endpoints.deleteManagedAPI, tenantPath.merging(["name": arguments[0]]) { $1 })
            print("removed")
        default:
            return false
        }
        return true
    }
}
