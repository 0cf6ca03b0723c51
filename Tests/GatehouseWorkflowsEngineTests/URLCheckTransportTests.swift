import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseTesting
import Testing
@testable import GatehouseExecutors
import GatehouseWiring
@testable import GatehouseWorkflowsEngine
import GatehouseFormats

/// `url-check` over the real outbound client: a silent host is reported unreachable within
/// its 5 s (URLSession's 30 s made the run time out instead), a 401 with `WWW-Authenticate` is
/// an answer, a redirect is reported as it came, and a private address is refused where the
/// connection is made unless private targets are allowed.
@Suite struct URLCheckTransportTests {
    func report(_ check: URLCheckExecutor, _ url: URL) async -> [String: JSONValue] {
        let outcome = await check.execute(BuiltInExecutorTests.invocation([], input: ["url": .string(url.absoluteString)], kind: "url-check"))
        guard case .succeeded(let report) = outcome else { return [:] }
        return report.object ?? [:]
    }

    @Test func aHostileHostIsReportedAsItBehaves() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let check = URLCheckExecutor(http: CurlHTTPClient(), allowPrivateTargets: true)
        let silent = await report(check, upstream.url("/silent"))
        #expect(silent["reachable"] == .bool(false) && silent["problem"]?.string?.contains("timed out") == true, "\(silent)")
        let basic = await report(check, upstream.url("/unauthorized/basic"))
        #expect(basic["reachable"] == .bool(true) && basic["status"] == .number(401), "\(basic)")
        let redirect = await report(check, upstream.url("/redirect?to=http://10.0.0.1/"))
        #expect(redirect["status"] == .number(302), "\(redirect)")
    }
}
