import Foundation

/// Lifetimes and limits of sign-in sessions.
public struct SessionSettings: Sendable, Equatable {
    /// Access tokens (`expiresIn`).
    public var accessLifetime: TimeInterval = 1800
    /// A refresh token is good this long after it was issued; every rotation issues a new one.
    public var refreshLifetime: TimeInterval = 7 * 86_400
    /// A session nobody used for this long ends, however fresh its refresh token.
    public var idleLifetime: TimeInterval = 30 * 86_400
    /// No session outlives this, counted from sign-in.
    public var absoluteLifetime: TimeInterval = 90 * 86_400
    /// Two refreshes with one token this close together get the same new pair.
    public var reuseGrace: TimeInterval = 30
    /// Sessions per account; one more sign-in ends the least recently created.
    public var maxSessions = 5

    public init() {}
}
