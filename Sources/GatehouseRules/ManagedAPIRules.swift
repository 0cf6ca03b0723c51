import Foundation

/// What a managed API definition may hold, shared by the engine (which refuses) and the wire
/// contract (which documents it for the SDK).
public enum ManagedAPIRules {
    /// The DataMap keys a definition's own fields take; metadata cannot use them.
    public static let reservedMetadataKeys = ["name", "displayName", "baseUrl", "authType", "mode"]
}
