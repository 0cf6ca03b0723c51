import Foundation

/// Tells the time. Engines read it instead of calling `Date()`.
public protocol Clock: Sendable {
    var now: Date { get }
}

/// The wall clock.
public struct SystemClock: Clock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that moves only when told; tests cross expiry windows without sleeping.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = start
    }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
