import Foundation

/// Why a Managed API call could not be made (no upstream HTTP answer exists); branch on `errorCode`.
public struct ManagedAPIException: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// One of `ManagedAPIErrorCodes`, or the code Gatehouse sent when it refused the call itself.
    public let errorCode: String
    /// A sentence for logs; the server's own words when Gatehouse refused.
    public let message: String
    /// The HTTP status of a refusal by Gatehouse or by a token endpoint, when there was one.
    public let statusCode: Int?

    /// An exception with its code and message.
    public init(errorCode: String, message: String, statusCode: Int? = nil) {
        self.errorCode = errorCode
        self.message = message
        self.statusCode = statusCode
    }

    /// `CODE: message`.
    public var description: String { "\(errorCode): \(message)" }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}

/// The `errorCode`s of `ManagedAPIException`.
///
/// A refusal by Gatehouse itself (rate limited, session invalid, unknown API on the server) passes the server's
/// code through as it is, so `X-Gatehouse-Error: INTERACTION_REQUIRED` compares equal to the constant below;
/// `GATEHOUSE_REFUSED` is used only when the refusal carried no readable code, and the server's
/// `MANAGED_API_NOT_FOUND` reads as `UNKNOWN_API`.
public enum ManagedAPIErrorCodes {
    /// Consent is needed but the prompt was `.never`: show UI, then call again with `.ifRequired` or `.always`.
    public static let INTERACTION_REQUIRED_ERROR_CODE = "INTERACTION_REQUIRED"
    /// No Managed API of that name on the device (or on the server, for a proxied call).
    public static let UNKNOWN_API = "UNKNOWN_API"
    /// The definition lacks what its auth type needs on the device (no bearer token set, no OAuth client, a secret kept server-side).
    public static let MISSING_AUTH_CONFIGURATION = "MISSING_AUTH_CONFIGURATION"
    /// The relative URL was absolute, protocol-relative, used a backslash or left the base path; nothing was sent.
    public static let INVALID_URL = "INVALID_URL"
    /// The network failed (offline, DNS, TLS, timeout) before any answer came.
    public static let NETWORK = "NETWORK"
    /// The OAuth 2.0 flow failed: an `error=` callback, a state mismatch, or a token endpoint refusal.
    public static let OAUTH_FAILED = "OAUTH_FAILED"
    /// The user closed the consent screen, or it timed out.
    public static let OAUTH_CANCELLED = "OAUTH_CANCELLED"
    /// Gatehouse refused the call without a readable code.
    public static let GATEHOUSE_REFUSED = "GATEHOUSE_REFUSED"
    /// The token store could not read or write the tokens.
    public static let TOKEN_STORE_FAILED = "TOKEN_STORE_FAILED"
    /// Gatehouse answered something that is not the expected shape.
    public static let UNEXPECTED_RESPONSE = "UNEXPECTED_RESPONSE"
}

extension ManagedAPIException {
    static func code(_ code: String, _ message: String, status: Int? = nil) -> ManagedAPIException {
        ManagedAPIException(errorCode: code, message: message, statusCode: status)
    }

    static func network(_ error: any Error) -> ManagedAPIException {
        if let known = error as? ManagedAPIException { return known }
        return .code(ManagedAPIErrorCodes.NETWORK, "the request could not be sent: \(error)")
    }

    static func store(_ error: any Error) -> ManagedAPIException {
        if let known = error as? ManagedAPIException { return known }
        return .code(ManagedAPIErrorCodes.TOKEN_STORE_FAILED, "the token store failed: \(error)")
    }
}
