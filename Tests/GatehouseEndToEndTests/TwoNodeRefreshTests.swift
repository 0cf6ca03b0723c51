import Foundation
import GatehouseHTTP
import GatehouseServer
import GatehouseTesting
import Testing

/// Two server nodes on one PostgreSQL database: a refresh token sent to both at once
/// rotates exactly once, and every caller gets the same pair.
@Suite struct TwoNodeRefreshTests {
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func concurrentRefreshesOnTwoNodesRotateOnce() async throws {
        let first = try await LiveServer.start(.postgres)
        var settings = first.app.settings
        settings.port = 0
        settings.dataDir = NSTemporaryDirectory() + "gatehouse-node2-" + UUID().uuidString
        let second = try GatehouseApp(settings: settings, logSink: MemoryLogSink())
        try second.start()
        defer { second.server.shutdown(grace: 1) }

        let pair = try await DatacoveClient(first).signIn(first, phone: "+14165550111")
        let token = try #require(pair["refreshToken"] as? String)
        let nodes = [DatacoveClient(first), DatacoveClient(base: "http://127.0.0.1:\(second.server.port)/api/", apiKey: "")]
        let answers = try await withThrowingTaskGroup(of: (Int, NSDictionary).self) { group in
            for index in 0..<20 {
                let node = nodes[index % 2]
                group.addTask {
                    let reply = try await node.call("POST", "auth/v1/refresh", ["refreshToken": token])
                    return (reply.status, reply.json as NSDictionary)
                }
            }
            return try await group.reduce(into: [(Int, NSDictionary)]()) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.0 == 200 })
        #expect(Set(answers.map { $0.1["refreshToken"] as? String ?? "" }).count == 1)
        #expect(Set(answers.map { $0.1["accessToken"] as? String ?? "" }).count == 1)
        let generation = try await first.app.environment.database.read { db in
            try db.queryOne("SELECT generation FROM account_sessions", [])!.get("generation", as: Int.self)
        }
        #expect(generation == 1)
        await first.stop()
    }
}
