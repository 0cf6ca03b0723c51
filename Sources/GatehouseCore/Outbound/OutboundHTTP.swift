import Foundation

/// Sends HTTP requests to other services (providers, customer callbacks, Apple, OAuth
/// providers). The live one is libcurl's (`GatehouseOutbound`), which only the server links.
public protocol OutboundHTTP: Sendable {
    /// The whole answer, at most `request.maxResponseBytes` of it; throws `OutboundError`
    /// when no answer came, `CancellationError` when the calling task was cancelled.
    func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse)
}

/// Fails every request: the default in tests, so a test that reaches the network without
/// setting up a fake says so loudly.
public struct UnimplementedOutboundHTTP: OutboundHTTP {
    public init() {}
    public func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
        throw CoreError(.unavailable, .notSetUp("outbound HTTP in this test: \(request.httpMethod ?? "GET") \(request.url.host ?? "")"))
    }
}
