import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseHTTP
import GatehouseWire

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`.
enum SystemRoutes {
    static func register(on router: Router, database: any Database) {
        let ok = Data(#"{"status":"ok"}"#.utf8)
        router.on(OperatorEndpoints.healthz, inline: Anyone()) { _, _, _ in .json(raw: ok) }
        router.on(OperatorEndpoints.readyz, Anyone()) { _, _, _ in
            do {
                try await database.read { db in _ = try db.query("SELECT 1", []) }
                return .json(raw: Data(#"{"status":"ready"}"#.utf8))
            } catch {
                throw HTTPError(status: 503, code: "not_ready", message: "database is not reachable")
            }
        }
    }

    /// `/metrics` names tenants and their APIs, so it is for the operator only: on a listener
    /// of its own, or behind `token` (`Authorization: Bearer <token>`), or both.
    /// `counters`: the engines' own counter families, rendered after the request metrics.
    /// `outbound`: the calls this node made to other services.
    /// `families` render further metric families (the database's) in the Prometheus text format.
    static func registerMetrics(
        on router: Router, metrics: [HTTPMetrics], counters: [Counters], outbound: OutboundMetrics?, families: [@Sendable () -> String] = [],
        token: String?
    ) {
        router.on(OperatorEndpoints.metrics, inline: MetricsToken(expected: token.map { SHA256.hash(Data($0.utf8)) })) { _, _, _ in
            let text = metrics.map { $0.render() } + counters.map { $0.render() } + [outbound?.render() ?? ""] + families.map { $0() }
            return Response(
                status: 200, headers: ["Content-Type": "text/plain; version=0.0.4"], body: .bytes(Data(text.joined().utf8)))
        }
    }
}

/// The metrics token, when one is set (`Authorization: Bearer <token>`); without one, anyone
/// who reaches the metrics listener reads them. Hashed first, so that the comparison takes as
/// long whatever the length presented.
struct MetricsToken: InlineAuthenticator {
    struct Reader: Sendable {}
    typealias Principal = Reader
    let expected: [UInt8]?
    let credential = Credential.metricsToken.rawValue

    func authenticateInline(_ request: Request, context: RequestContext) throws -> Reader {
        if let expected {
            guard let presented = request.bearerToken else { throw HTTPError.unauthorized("the metrics token is required") }
            guard constantTimeEquals(SHA256.hash(Data(presented.utf8)), expected) else { throw HTTPError.unauthorized("invalid metrics token") }
        }
        return Reader()
    }
}
