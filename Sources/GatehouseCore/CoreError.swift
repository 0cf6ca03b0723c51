/// A failure of the core domain, with a stable code that each dialect maps to its envelope.
public struct CoreError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        case notFound = "not_found"
        case invalidArgument = "invalid_argument"
        case conflict = "conflict"
        case unauthenticated = "unauthenticated"
        case unavailable = "unavailable"
        /// A sum of money (a balance after a credit, say) would leave the range it is kept in.
        case amountOutOfRange = "amount_out_of_range"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
