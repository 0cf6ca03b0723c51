import Foundation
import GatehouseDatabase

/// Someone who runs Gatehouse through its console: not an end user of any tenant.
public struct ConsoleOperator: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        /// Looks, never acts.
        case viewer
        /// Looks and acts (and creates operators).
        case admin
    }
    public let id: String
    public let email: String
    public let role: Role
    public let createdAt: Date

    init(id: String, email: String, role: Role, createdAt: Date) {
        self.id = id
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    init(_ row: Row) throws {
        id = try row.get("id")
        email = try row.get("email")
        role = Role(rawValue: try row.get("role")) ?? .viewer
        createdAt = try row.get("created_at")
    }
}

/// A new operator, with what they need to set up their second factor (shown once).
public struct NewConsoleOperator: Sendable, Equatable {
    public let account: ConsoleOperator
    /// The `otpauth://` URI an authenticator app reads (drawn as a QR code by the console).
    public let totpURI: String
}

/// Why the console refused; a sign-in refusal never says which factor was wrong.
public enum ConsoleError: Error, Equatable, Sendable {
    case invalidEmail
    /// At least 12 characters and at most 200 bytes.
    case weakPassword
    case emailTaken
    /// Wrong email, password or code, or a code used before: one answer for all.
    case signInRefused
    /// Too many failures: no sign-in until then, whatever is sent.
    case locked(until: Date)
    /// An operator's own account cannot be removed by them.
    case cannotRemoveSelf
    case notFound
    /// Too many password checks at once: try again in a moment.
    case busy
    /// This needs the password typed in the last few minutes.
    case confirmationNeeded
    /// A passkey registration that did not check out (or a name that is not one).
    case passkeyRefused
    /// The authenticator's code asked before adding a passkey is wrong or already used
    /// (counted as a failed sign-in).
    case codeRefused
}
