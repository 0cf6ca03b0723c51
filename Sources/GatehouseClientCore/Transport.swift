import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; SDK products reach the network only through this, so tests and apps can replace it.
public protocol Transport: Sendable {
    /// Sends `request` and returns the body and response of whatever status the server answered.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `Transport` over URLSession.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    /// A transport over `session`, or over an ephemeral session with a `timeout` per request when none is given;
    /// without `followsRedirects`, a 3xx is the answer (a redirect would carry the request's `Authorization`
    /// to wherever it points).
    public init(session: URLSession? = nil, timeout: TimeInterval = 30, followsRedirects: Bool = true) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            self.session = URLSession(configuration: configuration, delegate: followsRedirects ? nil : RefusesRedirects(), delegateQueue: nil)
        }
    }

    /// Sends `request` through the session.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw GatehouseClientError.unexpectedResponse("no HTTP response") }
        return (data, http)
    }
}

/// Declines every redirect, so the 3xx itself reaches the caller.
final class RefusesRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
