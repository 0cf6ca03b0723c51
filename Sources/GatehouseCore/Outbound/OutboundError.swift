import Foundation

/// Why an outbound request got no usable answer. The description names the kind of failure
/// only: a transport's own text can carry the request's URL, query and all.
public struct OutboundError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public enum Code: String, Sendable {
        /// The total deadline passed, the connect took too long, or the answer trickled.
        case timedOut = "timeout"
        case hostNotFound = "host_not_found"
        case connectionRefused = "connection_refused"
        /// The connection broke before the whole answer came.
        case connectionLost = "connection_lost"
        case tls
        /// The address was not one this request may reach (`OutboundDestinations`).
        case destinationRefused = "destination_refused"
        case tooLarge = "too_large"
        /// Not HTTP, too many header fields, a header too large.
        case invalidResponse = "invalid_response"
        case badURL = "bad_url"
        case unknown
    }

    public let code: Code
    public init(_ code: Code) { self.code = code }

    public var errorDescription: String? { description }

    public var description: String {
        switch code {
        case .timedOut: "timed out"
        case .hostNotFound: "host not found"
        case .connectionRefused: "connection refused"
        case .connectionLost: "connection lost"
        case .tls: "TLS failed"
        case .destinationRefused: "the address is not one this request may reach"
        case .tooLarge: "the answer is too large"
        case .invalidResponse: "unreadable answer"
        case .badURL: "the URL is not usable"
        case .unknown: "network error"
        }
    }
}
