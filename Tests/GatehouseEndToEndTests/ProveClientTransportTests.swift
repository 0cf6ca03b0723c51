import Foundation
import GatehouseCore
import GatehouseProveClient
import GatehouseTesting
import Testing

/// The sample backend's Prove client over libcurl, against a server that misbehaves: a 401
/// with `WWW-Authenticate: Basic` (which URLSession never finished) and a redirect are
/// answers, reported with their status; a reset is a transport error; a silent server is a
/// timeout at the client's deadline; nothing hangs.
@Suite struct ProveClientTransportTests {
    @Test func aHostileServerIsReportedNotWaitedFor() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        for (path, status) in [("/unauthorized/basic", 401), ("/unauthorized/bearer", 401), ("/redirect", 302)] {
            let client = ProveClient(baseURL: upstream.url(path), clientID: "id", clientSecret: "secret")
            do {
                _ = try await client.validate(correlationId: "c")
                Issue.record("\(path) answered")
            } catch let failure as ProveClient.Failure {
                #expect(failure.status == status, "\(path): \(failure)")
            }
        }
        let reset = ProveClient(baseURL: upstream.url("/reset"), clientID: "id", clientSecret: "secret")
        await #expect(throws: OutboundError.self) { _ = try await reset.validate(correlationId: "c") }
        // A server that never answers ends the call at the client's deadline, as a timeout.
        let silent = ProveClient(baseURL: upstream.url("/silent"), clientID: "id", clientSecret: "secret", timeout: 2)
        await #expect(throws: OutboundError(.timedOut)) { _ = try await silent.validate(correlationId: "c") }
    }
}
