import Foundation

/// What the server knows about a request beyond its bytes.
public struct RequestContext: Sendable {
    /// Identifies the request in logs, error bodies and the `X-Request-Id` response header.
    public let requestID: String
    /// The client's address, taken from `X-Forwarded-For` only behind a trusted proxy.
    public let clientAddress: String
    /// The route's path template (`/users/:id`), used for logs and metrics.
    public internal(set) var route: String
    /// Values of the route's `:name` segments.
    public internal(set) var parameters: [String: String]
    /// Whoever middleware authenticated; each dialect stores and reads its own type.
    public var principal: (any Sendable)?

    public init(
        requestID: String, clientAddress: String, route: String = "",
        parameters: [String: String] = [:], principal: (any Sendable)? = nil
    ) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.route = route
        self.parameters = parameters
        self.principal = principal
    }

    /// A path parameter that the route template guarantees.
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The authenticated principal as a given type, or `nil`.
    public func principal<P>(as type: P.Type) -> P? { principal as? P }
}
