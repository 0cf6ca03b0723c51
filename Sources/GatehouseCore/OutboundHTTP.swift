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

    /// - Parameter followsRedirects: `false` answers a 3xx as it came, for requests to addresses
    ///   a tenant chose (a redirect could lead to an address that was never vetted).
    public init(timeout: TimeInterval = 15, followsRedirects: Bool = true) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: followsRedirects ? nil : NoRedirects(), delegateQueue: nil)
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// Refuses every redirect, so the 3xx itself is the answer.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
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
