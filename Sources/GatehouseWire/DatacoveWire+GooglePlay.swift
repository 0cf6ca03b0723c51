import Foundation

extension DatacoveWire {
    /// The tenant's Google Play connection, as `PATCH`/`GET tenants/v1/{id}/google-play-config`
    /// answer it; the service account's key itself is never sent back.
    public struct GooglePlayConfig: Codable, Sendable, Equatable {
        /// The app's package name; `null` until set.
        @ExplicitNull public var packageName: String?
        /// Whether a service account key is stored.
        public var hasServiceAccountKey: Bool
        /// The service account the server calls Google as; `null` until a key is saved.
        @ExplicitNull public var clientEmail: String?
        /// SHA-256 of the saved key's public half, in hex; `null` until a key is saved.
        @ExplicitNull public var keyFingerprint: String?
        /// The audience the push subscription's tokens carry; `null` until set.
        @ExplicitNull public var pushAudience: String?
        /// The service account the push subscription signs as; `null` until set.
        @ExplicitNull public var pushServiceAccountEmail: String?
        /// Whether this is the production connection (test purchases refused).
        public var production: Bool

        /// A Google Play connection.
        public init(
            packageName: String?, hasServiceAccountKey: Bool, clientEmail: String?, keyFingerprint: String?, pushAudience: String?,
            pushServiceAccountEmail: String?, production: Bool
        ) {
            self.packageName = packageName
            self.hasServiceAccountKey = hasServiceAccountKey
            self.clientEmail = clientEmail
            self.keyFingerprint = keyFingerprint
            self.pushAudience = pushAudience
            self.pushServiceAccountEmail = pushServiceAccountEmail
            self.production = production
        }
    }

    /// `PATCH tenants/v1/{id}/google-play-config`: a key left out keeps its value; `null` clears
    /// the two push settings.
    public struct GooglePlayConfigPatch: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case packageName, serviceAccountKey, pushAudience, pushServiceAccountEmail, production
        }
        public var packageName: String?
        /// The service account's JSON key file, whole, as a string: checked when saved, never sent back.
        public var serviceAccountKey: String?
        public var pushAudience: Nullable<String>?
        public var pushServiceAccountEmail: Nullable<String>?
        public var production: Bool?

        /// A patch that changes nothing; set the members to change.
        public init() {}
    }
}
