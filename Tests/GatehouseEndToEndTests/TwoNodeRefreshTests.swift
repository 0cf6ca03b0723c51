import Foundation
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Two server processes on one PostgreSQL database: a refresh token sent to both at once
/// rotates exactly once, and every caller gets the same pair.
@Suite struct TwoNodeRefreshTests {
    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)))
    func concurrentRefreshesOnTwoNodesRotateOnce() async throws {
        let first = try await LiveServer.start(.postgres)
        // The second node is a separate `gatehouse serve` process on the same database.
        let port = try freeLoopbackPort()
        let dataDir = NSTemporaryDirectory() + "gatehouse-node2-" + UUID().uuidString
        let second = try ChildProcess(
            path: ExecutableTests.binary, arguments: ["serve", "--host", "127.0.0.1", "--port", String(port)],
            environment: [
                "GATEHOUSE_DATABASE_URL": first.app.settings.databaseURL, "GATEHOUSE_DATA_DIR": dataDir, "GATEHOUSE_ACCESS_LOG": "off",
            ])
        defer {
            second.signal(SIGTERM)
            try? FileManager.default.removeItem(atPath: dataDir)
        }
        // The node logs `listening` once it has migrated and accepts connections.
        _ = await second.line(within: 30) { $0.contains("\"listening\"") }
        let ready = (try? await DatacoveClient(base: "http://127.0.0.1:\(port)/", apiKey: "").call("GET", "readyz").status) == 200
        #expect(ready, "second node did not start: \(second.text)")

        let pair = try await DatacoveClient(first).signIn(first, phone: "+14165550111")
        let token = try #require(pair["refreshToken"] as? String)
        let nodes = [DatacoveClient(first), DatacoveClient(base: "http://127.0.0.1:\(port)/api/", apiKey: "")]
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
        second.signal(SIGTERM)
        #expect(await second.wait(seconds: 15) == 0)
        await first.stop()
    }
}
