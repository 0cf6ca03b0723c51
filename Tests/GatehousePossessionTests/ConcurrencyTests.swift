import Foundation
import GatehousePossession
import GatehouseTestEvents
import Testing

/// One authenticator, many authentications at once: each keeps its own token, device token and
/// authId, and the app's steps are called one at a time.
@Suite struct ConcurrencyTests {
    static let count = 8

    @Test func concurrentAuthenticationsStayIndependent() async throws {
        let tokens = (0..<Self.count).map { authToken(sub: "flow-\($0)") }
        let gatehouse = FakeGatehouse { call in
            switch call.operation {
            case "begin":
                guard let flow = tokens.firstIndex(where: { $0 == call.bearer }) else { return Wire.error(401, 1005) }
                let step = Wire.camara.replacingOccurrences(of: "state=s1", with: "flow=\(flow)")
                return Wire.session(step, deviceToken: "dev-\(flow)", authId: "auth-\(flow)")
            case "carrier-check":
                // Each device token must come with its own flow's code, or the flows got mixed up.
                guard let flow = call.bearer?.split(separator: "-").last, call.body?.object?["code"]?.string == "code-\(flow)" else {
                    return Wire.step(Wire.failed)
                }
                return Wire.step(#"{"next":"done","authId":"auth-\#(flow)"}"#)
            default:
                return Wire.error(404, 1011)
            }
        }
        let arrivals = Arrivals(Self.count)
        let check = ScriptedCarrierCheck { challenge in
            // Every flow waits here until all are in flight, so they really overlap.
            await arrivals.arrive()
            let flow = challenge.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first?.value } ?? "?"
            return .redirected(code: "code-\(flow)", state: nil, error: nil)
        }
        let finish = RecordingFinish()
        finish.work = 0.005
        let auth = makeAuth(gatehouse, finish: finish, check: check)
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, token) in tokens.enumerated() { group.addTask { (index, try await auth.authenticate(token)) } }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(results == Dictionary(uniqueKeysWithValues: (0..<Self.count).map { ($0, "auth-\($0)") }))
        #expect(Set(finish.authIds) == Set((0..<Self.count).map { "auth-\($0)" }) && finish.authIds.count == Self.count)
        #expect(gatehouse.calls.count == 2 * Self.count)
        // The flows overlap, but the app's step is called by one at a time.
        #expect(finish.callsAtOnce == 1)
    }
}

/// Holds every caller until `expected` have arrived.
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = 0
    private let expected: Int
    private let all = Latch()

    init(_ expected: Int) { self.expected = expected }

    func arrive() async {
        let last = lock.withLock { () -> Bool in
            arrived += 1
            return arrived == expected
        }
        if last { all.signal() }
        _ = await all.wait(timeout: .seconds(60))
    }
}
