import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends HTTP requests to other services (customer callbacks, Apple, OAuth providers).
public protocol OutboundHTTP: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `OutboundHTTP` over URLSession.
public struct URLSessionOutboundHTTP: OutboundHTTP {
    private let session: URLSession

    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// Fails every request: the default in tests, so a test that reaches the network without
/// setting up a fake says so loudly.
public struct UnimplementedOutboundHTTP: OutboundHTTP {
    public init() {}
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        throw CoreError(.unavailable, "outbound HTTP is not set up in this test: \(request.httpMethod ?? "GET") \(request.url?.host ?? "")")
    }
}
