import Foundation
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A carrier check over any network: each hop a GET through a `Transport` that follows no redirect, the walk
/// following up to `maxRedirects` `Location`s itself. The default on Linux and in test mode; on a phone over
/// Wi-Fi it proves nothing, which is why `CellularCarrierCheck` is the default there.
public struct RedirectFollowingCarrierCheck: CarrierCheck {
    private let transport: any Transport
    private let headers: [String: String]
    private let maxRedirects: Int
    private let timeout: TimeInterval

    /// A check through `transport` (it must not follow redirects itself), sending `headers` on every hop
    /// (tests send `X-Test-Network: cellular` to a local operator stand-in); each hop waits `timeout` seconds.
    public init(
        transport: any Transport = URLSessionTransport(followsRedirects: false), headers: [String: String] = [:], maxRedirects: Int = 10,
        timeout: TimeInterval = 10
    ) {
        self.transport = transport
        self.headers = headers
        self.maxRedirects = maxRedirects
        self.timeout = timeout
    }

    /// Walks the challenge's redirects to `redirectUri`.
    public func run(_ challenge: CarrierCheckChallenge) async -> CarrierCheckOutcome {
        guard var walk = RedirectWalk(challenge, maxRedirects: maxRedirects) else { return .redirectError }
        var next = walk.start
        while case .fetch(let url) = next {
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.httpMethod = "GET"
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            do {
                let (_, response) = try await transport.send(request)
                next = walk.answered(url, status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"))
            } catch {
                return Self.unavailable(error)
            }
        }
        guard case .done(let outcome) = next else { return .redirectError }
        return outcome
    }

    /// A transport failure: a timeout, or (anything else) no usable path to the operator.
    static func unavailable(_ error: any Error) -> CarrierCheckOutcome {
        if let error = error as? URLError, error.code == .timedOut { return .timeout }
        return .noCellular
    }
}
