/// A line the transport logs: what went wrong, and the request it concerns. The id is one
/// the server generated and gave the client, so the application can log it unmasked and a
/// reported 500 can be found by it.
public struct TransportLogEntry: Sendable, Equatable {
    public let message: String
    public let requestID: String?

    public init(_ message: String, requestID: String? = nil) {
        self.message = message
        self.requestID = requestID
    }

    /// Both as one line, for sinks that take text.
    public var line: String { requestID.map { "\(message) (request \($0))" } ?? message }
}
