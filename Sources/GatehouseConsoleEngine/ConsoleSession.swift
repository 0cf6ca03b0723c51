import Foundation
import GatehouseDatabase

/// A signed-in operator's session, as its cookie finds it.
public struct ConsoleSession: Sendable, Equatable {
    public let id: String
    public let account: ConsoleOperator
    /// The synchronizer token every form of this session carries.
    public let csrfToken: String
    public let createdAt: Date
    /// When the operator last typed the password again (destructive actions ask for it).
    public let confirmedAt: Date?

    /// No request for this long ends the session.
    public static let idleTimeout: TimeInterval = 30 * 60
    /// A session ends this long after sign-in, however busy.
    public static let absoluteTimeout: TimeInterval = 12 * 60 * 60
    /// How long a typed password allows destructive actions.
    public static let confirmationWindow: TimeInterval = 5 * 60

    /// True while a destructive action needs no password.
    public func isConfirmed(at now: Date) -> Bool {
        guard let confirmedAt else { return false }
        return now.timeIntervalSince(confirmedAt) < Self.confirmationWindow
    }
}

/// A new session: the token goes in the cookie and is kept nowhere else.
public struct OpenedConsoleSession: Sendable {
    public let token: String
    public let session: ConsoleSession
}
