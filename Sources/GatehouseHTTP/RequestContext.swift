import Foundation

/// What the server knows about a request beyond its bytes. Who the caller is travels typed
/// instead: an `Authenticator` hands its principal to the handler it guards.
public struct RequestContext: Sendable {
    /// Identifies the request in logs, error bodies and the `X-Request-Id` response header.
    public let requestID: String
    /// The client's address, taken from `X-Forwarded-For` only behind a trusted proxy.
    public let clientAddress: String
    /// The route's path template (`/users/:id`), used for logs and metrics.
    public internal(set) var route: String
    /// Values of the route's `:name` segments.
    public internal(set) var parameters: [String: String]
    public init(requestID: String, clientAddress: String, route: String = "", parameters: [String: String] = [:]) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.route = route
        self.parameters = parameters
    }

    /// A path parameter that the route template guarantees.
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }
}
