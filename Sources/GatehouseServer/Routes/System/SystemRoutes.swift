import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseHTTP

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`.
enum SystemRoutes {
    /// `counters`: the engines' own counter families, rendered after the request metrics.
    static func register(on router: Router, database: any Database, metrics: [HTTPMetrics], counters: [Counters] = [], outbound: OutboundMetrics? = nil) {
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
        router.get("/metrics", .inline { _, _ in
            Response(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4"], body: .bytes(Data((metrics.map { $0.render() } + counters.map { $0.render() } + [outbound?.render() ?? ""]).joined().utf8)))
        })
    }
}
