/// A refusal of the managed APIs engine, with a code of its own meaning; the dialect maps it
/// to its envelope.
public struct ManagedAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// No such managed API for this tenant.
        case notFound
        /// A definition contradicts itself or cannot work in its mode; the message says why.
        case definitionInvalid
        /// A secret was given but the server has no key to seal it with.
        case secretKeyMissing
        /// The proxy was asked for a `direct` definition.
        case notProxied
        /// A relative path the proxy will not send (absolute, escaping the base, encoded tricks).
        case pathRefused
        /// The destination resolves to an address the definition may not reach.
        case destinationRefused
        /// The credential could not be had: the token endpoint failed or a stored secret no longer opens.
        case credentialUnavailable
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
