import GatehouseCore

/// A credential held by a provider adapter. It prints, dumps and mirrors as `<redacted>`, so
/// an adapter interpolated into a log line or an error never carries its token or key.
struct ProviderSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    var description: String { "<redacted>" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
