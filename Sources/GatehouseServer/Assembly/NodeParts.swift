import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseOutbound

/// What every engine's assembly is handed: the node's settings and environment, and the
/// addresses it answers on. Built once in `GatehouseApp.init`.
struct NodeParts: Sendable {
    let settings: Settings
    let environment: Environment
    let logSink: any LogSink
    /// Every call this node makes to another service.
    let outbound: CurlHTTPClient
    /// Calls to addresses a tenant or an operator chose (executors, token endpoints, carriers):
    /// no call follows a redirect unless it asks. Tests that inject an environment inject this too.
    var tenantHTTP: any OutboundHTTP { environment.http }
    /// The address callers reach this node on: `public-url`, else this server's own once it listens.
    let publicURL: @Sendable () -> URL

    var logger: Logger { environment.logger }
    var isDevelopment: Bool { settings.mode == .development }

    /// `publicURL` as text without a trailing slash, for building callback addresses.
    var publicBase: @Sendable () -> String {
        { [publicURL] in
            let base = publicURL().absoluteString
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }
    }
}
