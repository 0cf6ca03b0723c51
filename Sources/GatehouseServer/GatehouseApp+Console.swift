import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP

extension GatehouseApp {
    /// The console's engine when operators can exist (a `console-secret-key`, or development's
    /// own), and its listener when one is asked for (`console-port`, or development's default):
    /// loopback unless `console-host` says otherwise, never on the public listener.
    static func console(
        _ settings: Settings, environment: Environment, sources: ConsoleSources,
        errorLog: @escaping @Sendable (TransportLogEntry) -> Void
    ) throws -> (engine: ConsoleEngine?, server: Server?) {
        guard let secrets = try consoleSecrets(settings, logger: environment.logger) else {
            if settings.consolePort != nil { environment.logger.warning("the console is off: set console-secret-key (it seals the operators' second factors)") }
            return (nil, nil)
        }
        let engine = ConsoleEngine(environment: environment, secrets: secrets, passwordCost: try consolePasswordCost(settings))
        guard let port = settings.consoleListenerPort else { return (engine, nil) }
        let publicURL = settings.consolePublicURL.flatMap(URL.init(string:))
        let origin = publicURL.flatMap { url in url.scheme.flatMap { scheme in url.host.map { "\(scheme)://\($0)" + (url.port.map { ":\($0)" } ?? "") } } }
        let site = ConsoleSite(console: engine, engines: sources, secure: publicURL?.scheme == "https", origin: origin, listenerHost: settings.consoleHost)
        let router = Router(bodyKind: .any)
        site.register(on: router)
        var configuration = ServerConfiguration()
        configuration.host = settings.consoleHost
        configuration.port = port
        // A few operators: two threads, few connections, small forms.
        configuration.threads = 2
        configuration.maxConnections = 256
        configuration.maxBodySize = 64 * 1024
        configuration.connectionTimeout = settings.connectionTimeout
        configuration.trustedProxies = settings.trustedProxies
        return (engine, Server(configuration: configuration, responder: Responder(router: router, errorLog: errorLog), errorLog: errorLog))
    }

    /// The operators' password cost the settings ask for (scrypt N = 2^cost, r = 8, p = 1).
    public static func consolePasswordCost(_ settings: Settings) throws -> PasswordHash.Cost {
        guard (10...20).contains(settings.consolePasswordCost) else { throw SettingsError("console-password-cost must be 10 to 20") }
        return PasswordHash.Cost(logN: settings.consolePasswordCost, r: 8, p: 1)
    }
}
