import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; SDK products reach the network only through this.
public protocol Transport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `Transport` over URLSession.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    public init(session: URLSession? = nil, timeout: TimeInterval = 30) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            self.session = URLSession(configuration: configuration)
        }
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw GatehouseClientError.unexpectedResponse("no HTTP response") }
        return (data, http)
    }
}
