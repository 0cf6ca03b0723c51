/// A failure of the core domain, with a stable code of its own meaning that each dialect
/// maps to its envelope.
public struct CoreError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: Sendable, CaseIterable {
        /// No such thing in this scope.
        case notFound
        /// A value fails its check.
        case invalidArgument
        /// The change contradicts something that already exists.
        case conflict
        /// The caller could not be authenticated.
        case unauthenticated
        /// A dependency is not available.
        case unavailable
        /// A sum of money (a balance after a credit, say) would leave the range it is kept in.
        case amountOutOfRange
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
