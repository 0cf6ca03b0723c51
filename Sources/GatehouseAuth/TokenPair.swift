import Foundation

/// The access and refresh tokens the server issues, plus when this device received them.
public struct TokenPair: Codable, Sendable, Equatable {
    /// The bearer token for authenticated calls.
    public var accessToken: String
    /// The single-use token that buys the next pair.
    public var refreshToken: String
    /// Seconds the access token lives, counted from `receivedAt`.
    public var expiresIn: Int
    /// When this device received the pair; absent in the server's JSON, set locally before storing.
    public var receivedAt: Date?

    /// A pair; `receivedAt` is filled in when it is stored if left `nil`.
    public init(accessToken: String, refreshToken: String, expiresIn: Int, receivedAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.receivedAt = receivedAt
    }

    // Local receive time + expiresIn, never the JWT's `exp`: the device clock may be off by minutes.
    /// When the access token expires by the local clock, or `nil` when the receive time is unknown.
    public var expiresAt: Date? { receivedAt.map { $0.addingTimeInterval(TimeInterval(expiresIn)) } }

    /// Whether the access token should be refreshed at `now`, `margin` seconds before it expires.
    public func needsRefresh(at now: Date, margin: TimeInterval) -> Bool {
        // Unknown receive time: refreshing once is cheaper than failing a call with 401.
        guard let expiresAt else { return true }
        return now >= expiresAt.addingTimeInterval(-margin)
    }

    /// A copy stamped with the local receive time.
    public func received(at date: Date) -> TokenPair {
        var copy = self
        copy.receivedAt = date
        return copy
    }
}
