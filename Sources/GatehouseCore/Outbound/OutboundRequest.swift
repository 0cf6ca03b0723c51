import Foundation
import GatehouseFormats

/// One request the server sends to another service, with everything that bounds it: the
/// caller chooses its deadlines, which addresses it may reach and whether redirects are
/// followed, so that no caller inherits a transport's defaults by accident.
///
/// The names follow Foundation's `URLRequest`, which every caller was written against.
public struct OutboundRequest: Sendable {
    public var url: URL
    public var httpMethod: String?
    public var httpBody: Data?
    /// The total deadline, from the first connect to the last byte of the answer.
    public var timeoutInterval: TimeInterval
    /// How long resolving the host and connecting (TLS included) may take; at most the total.
    public var connectTimeout: TimeInterval = 10
    /// An answer that arrives slower than this for `lowSpeedSeconds` is abandoned as timed out.
    public var lowSpeedBytesPerSecond = 1
    public var lowSpeedSeconds: TimeInterval = 15
    /// A larger answer fails with `OutboundError.tooLarge`, whatever its announced length.
    public var maxResponseBytes = 16 << 20
    /// Off unless asked: a redirect could lead anywhere, credentials and all.
    public var followsRedirects = false
    /// Which addresses the connection may go to; checked on the address connected to.
    public var destinations: OutboundDestinations = .any
    /// What kind of service this is, for the metrics (`provider`, `callback`, `proxy`, …).
    public var target: OutboundTargetKind = .other
    public private(set) var headerFields: [(name: String, value: String)] = []

    public init(url: URL, timeoutInterval: TimeInterval = 60) {
        self.url = url
        self.timeoutInterval = timeoutInterval
    }

    /// Replaces every field of this name.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        headerFields.removeAll { HTTPToken.namesMatch($0.name, name) }
        if let value { headerFields.append((name, value)) }
    }

    /// Adds a field, keeping those of the same name.
    public mutating func addValue(_ value: String, forHTTPHeaderField name: String) {
        headerFields.append((name, value))
    }

    /// The first field of this name.
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields.first { HTTPToken.namesMatch($0.name, name) }?.value
    }
}

/// The addresses a request may connect to.
public enum OutboundDestinations: Sendable, Equatable {
    /// Any: a service the operator configured (a provider, Apple, the delivery bridge).
    case any
    /// Public addresses only: a URL a tenant chose, which must not reach the server's own network.
    case publicOnly
}

/// The kinds of service the server calls, as the metrics label them.
public struct OutboundTargetKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let other: Self = "other"
    public static let provider: Self = "provider"
    public static let appStore: Self = "app_store"
    public static let googlePlay: Self = "google_play"
    public static let callback: Self = "callback"
    public static let webhook: Self = "webhook"
    public static let workflow: Self = "workflow"
    public static let tokenEndpoint: Self = "token_endpoint"
    public static let proxy: Self = "proxy"
    public static let carrier: Self = "carrier"
}
