/// A failure of the core domain, with a stable code of its own meaning that each dialect
/// maps to its envelope. It carries no text: `reason` says what was refused, as data, and the
/// dialects word it (`CoreError+Text.swift` in the server).
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

    /// The things of the core domain a refusal can name.
    public enum Thing: String, Sendable, CaseIterable {
        case tenant, application, key, testNumber, prefixBlock
    }

    /// What was refused.
    public enum Reason: Equatable, Sendable {
        /// No such thing in the caller's scope.
        case noSuch(Thing)
        /// A field's value breaks its rule.
        case field(String, FieldRule)
        /// A test destination outside the reserved ranges, saved without `confirmed`.
        case testDestinationNotReserved(isEmail: Bool)
        /// A tenant already holds as many of a thing as it may.
        case tenantHoldsMost(Thing, limit: Int)
        /// The amount would take the balance out of the range it is kept in.
        case balanceOutOfRange
        /// A dependency this build or test did not set up (named for the log, never for a client).
        case notSetUp(String)
    }

    public let code: Code
    public let reason: Reason

    public init(_ code: Code, _ reason: Reason) {
        self.code = code
        self.reason = reason
    }

    /// No such thing in this scope.
    public static func notFound(_ thing: Thing) -> CoreError { CoreError(.notFound, .noSuch(thing)) }

    /// A field's value breaks its rule.
    public static func invalid(_ field: String, _ rule: FieldRule) -> CoreError { CoreError(.invalidArgument, .field(field, rule)) }

    public var description: String { "\(code): \(reason)" }
}
