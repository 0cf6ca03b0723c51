import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseServer

/// The proxy's slots: one definition whose upstream never answers holds at most its own share,
/// and the others still get through; a slot comes back however its call ends.
@Suite struct UpstreamSessionTests {
    @Test func aHangingUpstreamTakesOnlyItsOwnDefinitionsSlots() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let session = UpstreamSession(http: CurlHTTPClient(), maxCalls: 4, maxCallsPerAPI: 2)
        func call(_ path: String) -> OutboundRequest {
            var request = OutboundRequest(url: upstream.url(path), timeoutInterval: 30)
            request.lowSpeedSeconds = 30
            return request
        }
        // Two calls of `t/slow` wait on a silent upstream, holding both of its slots.
        let hanging = (0..<2).map { _ in Task { try await session.open(call("/silent"), api: "t/slow") } }
        for _ in 0..<200 where session.inUse(api: "t/slow") < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        await #expect(throws: UpstreamSession.Busy.self) { _ = try await session.open(call("/ok"), api: "t/slow") }
        let other = try await session.open(call("/ok"), api: "t/fine")
        #expect(other.response.statusCode == 200)
        while try await other.body.next() != nil {}
        other.cancel()
        #expect(session.inUse(api: "t/fine") == 0)
        for task in hanging { task.cancel() }
        for task in hanging { _ = await task.result }
        #expect(session.inUse(api: "t/slow") == 0)
    }
}
