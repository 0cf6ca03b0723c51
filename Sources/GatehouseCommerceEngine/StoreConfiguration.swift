import Foundation
import GatehouseDatabase

/// A tenant's App Store connection, as the operator sees it: never the private key.
public struct AppleConfig: Sendable, Equatable {
    public var bundleId: String?
    public var issuerId: String?
    public var keyId: String?
    public var appAppleId: Int64?
    /// Whether a private key is on file.
    public var hasPrivateKey: Bool
    /// Production tenants accept only Apple's root and only Production/Sandbox data.
    public var production: Bool
    public var extraTrustedRootPEM: String?
    /// The "StoreKit Testing in Xcode" certificate, as PEM, whose Xcode transactions a
    /// non-production tenant accepts; public data, so it is shown back.
    public var xcodeCertificatePEM: String?
    /// SubscriptionFlow: the app may claim Apple purchases that carry no account token (off by default).
    public var claimUntaggedPurchases: Bool
}

/// Changes to an `AppleConfig`; `nil` keeps a value, `.some(nil)` clears an optional one.
public struct AppleConfigPatch: Sendable, Equatable {
    public var bundleId: String?
    public var issuerId: String?
    public var keyId: String?
    /// The full `.p8` file (PKCS#8 PEM, EC P-256).
    public var privateKey: String?
    public var appAppleId: Int64?
    public var production: Bool?
    public var extraTrustedRootPEM: String??
    public var xcodeCertificatePEM: String??
    public var claimUntaggedPurchases: Bool?
    public init() {}
}

/// A consumable that grants credits.
public struct CreditPackage: Sendable, Equatable {
    public let provider: String
    public let platformProductId: String
    public let credits: Int
    public let displayName: String?
    public init(provider: String, platformProductId: String, credits: Int, displayName: String?) {
        self.provider = provider
        self.platformProductId = platformProductId
        self.credits = credits
        self.displayName = displayName
    }
}

/// A plan: an App Store subscription (and optionally a Google Play one) that unlocks gated workflows.
public struct Plan: Sendable, Equatable {
    public enum Interval: String, Sendable, CaseIterable { case monthly, annual, oneTimeYear = "one_time_year" }
    public let productId: String
    public let displayName: String
    public let interval: Interval
    public let applePlatformProductId: String
    /// The Google Play subscription that sells the plan too, if any.
    public let google: GoogleSubscriptionID?
    public let gatedWorkflowId: String?
}

/// A Google Play subscription, and optionally one of its base plans, written as RevenueCat
/// writes Play products: `subscriptionId` or `subscriptionId:basePlanId`.
public struct GoogleSubscriptionID: Sendable, Equatable, CustomStringConvertible {
    public let subscriptionID: String
    public let basePlanID: String?

    /// Parses the written form; nil unless the subscription id is 1 to 140 of lowercase letters,
    /// digits, `_` and `.` starting with a letter or digit, and the base plan 1 to 63 of
    /// lowercase letters, digits and `-` starting with a letter or digit (Play Console's rules).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        func valid(_ part: String, length: Int, extra: Set<UInt8>) -> Bool {
            guard let first = part.utf8.first, (1...length).contains(part.utf8.count), (0x61...0x7A).contains(first) || (0x30...0x39).contains(first)
            else { return false }
            return part.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || extra.contains($0) }
        }
        guard valid(parts[0], length: 140, extra: [0x5F, 0x2E]) else { return nil }
        if parts.count == 2, !valid(parts[1], length: 63, extra: [0x2D]) { return nil }
        subscriptionID = parts[0]
        basePlanID = parts.count == 2 ? parts[1] : nil
    }

    public var description: String { subscriptionID + (basePlanID.map { ":" + $0 } ?? "") }
}

/// The server trial for iOS.
public struct TrialConfig: Sendable, Equatable {
    public var iosEnabled: Bool
    public var iosDurationDays: Int
    /// The trial of Android apps (sessions an `ANDROID` key signed in).
    public var androidEnabled: Bool
    public var androidDurationDays: Int
    public init(iosEnabled: Bool, iosDurationDays: Int, androidEnabled: Bool = false, androidDurationDays: Int = 7) {
        self.iosEnabled = iosEnabled
        self.iosDurationDays = iosDurationDays
        self.androidEnabled = androidEnabled
        self.androidDurationDays = androidDurationDays
    }
    public static let `default` = TrialConfig(iosEnabled: false, iosDurationDays: 7)

    /// The trial offered to an app of `platform` (`ANDROID`'s own; every other app gets iOS's).
    public func offer(platform: String?) -> (enabled: Bool, days: Int) {
        platform == "ANDROID" ? (androidEnabled, androidDurationDays) : (iosEnabled, iosDurationDays)
    }
}
