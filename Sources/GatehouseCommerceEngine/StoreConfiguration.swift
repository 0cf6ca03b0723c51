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

/// A plan: an App Store subscription that unlocks gated workflows.
public struct Plan: Sendable, Equatable {
    public enum Interval: String, Sendable, CaseIterable { case monthly, annual, oneTimeYear = "one_time_year" }
    public let productId: String
    public let displayName: String
    public let interval: Interval
    public let applePlatformProductId: String
    public let gatedWorkflowId: String?
}

/// The server trial for iOS.
public struct TrialConfig: Sendable, Equatable {
    public var iosEnabled: Bool
    public var iosDurationDays: Int
    public static let `default` = TrialConfig(iosEnabled: false, iosDurationDays: 7)
}
