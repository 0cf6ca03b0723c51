import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseHTTP

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`.
enum SystemRoutes {
    static func register(on router: Router, database: any Database) {
        let ok = Data(#"{"status":"ok"}"#.utf8)
        router.get("/healthz", .inline { _, _ in .json(raw: ok) })
        router.get("/readyz", .async { _, _ in
            do {
                try await database.read { db in _ = try db.query("SELECT 1", []) }
                return .json(raw: Data(#"{"status":"ready"}"#.utf8))
            } catch {
                throw HTTPError(status: 503, code: "not_ready", message: "database is not reachable")
            }
        })
    }

    /// `/metrics` names tenants and their APIs, so it is for the operator only: on a listener
    /// of its own, or behind `token` (`Authorization: Bearer <token>`), or both.
    /// `counters`: the engines' own counter families, rendered after the request metrics.
    /// `outbound`: the calls this node made to other services.
    static func registerMetrics(on router: Router, metrics: [HTTPMetrics], counters: [Counters], outbound: OutboundMetrics?, token: String?) {
        // Hashed first, so that the comparison takes as long whatever the length presented.
        let expected = token.map { SHA256.hash(Data($0.utf8)) }
        router.get("/metrics", .inline { request, _ in
            if let expected {
                guard let presented = request.bearerToken else { throw HTTPError.unauthorized("the metrics token is required") }
                guard constantTimeEquals(SHA256.hash(Data(presented.utf8)), expected) else { throw HTTPError.unauthorized("invalid metrics token") }
            }
            return Response(
                status: 200, headers: ["Content-Type": "text/plain; version=0.0.4"],
                body: .bytes(Data((metrics.map { $0.render() } + counters.map { $0.render() } + [outbound?.render() ?? ""]).joined().utf8)))
        })
    }
}
