import Foundation
import GatehouseCrypto

/// A tenant's passkey relying party: who the credentials are for, which origins may use them
/// (`https://<rpId>`, Android's `android:apk-key-hash:…`), which iOS apps share them through
/// associated domains, and whether passkeys are on.
public struct PasskeyConfig: Sendable, Equatable {
    public var rpID: String
    public var rpName: String
    public var origins: [String]
    /// `TEAMID.bundle.id` of each iOS app, served in `apple-app-site-association`.
    public var iosAppIDs: [String]
    public var enabled: Bool
    public var updatedAt: Date?

    public init(rpID: String, rpName: String, origins: [String], iosAppIDs: [String], enabled: Bool, updatedAt: Date? = nil) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
        self.iosAppIDs = iosAppIDs
        self.enabled = enabled
        self.updatedAt = updatedAt
    }
}

/// A passkey as its owner and operators see it: never its key.
public struct Passkey: Sendable, Equatable {
    /// The credential id, base64url.
    public let id: String
    public let name: String
    public let algorithm: Int
    public let backedUp: Bool
    public let createdAt: Date
    public let lastUsedAt: Date?
    /// When a sign-in's counter last went back (a possible cloned authenticator), if ever.
    public var counterRegressedAt: Date? = nil
}

/// What a client needs to make a passkey (`PublicKeyCredentialCreationOptions`).
public struct PasskeyCreationOptions: Sendable, Equatable {
    public let challenge: [UInt8]
    public let rpID: String
    public let rpName: String
    /// The account's random user handle.
    public let userID: [UInt8]
    /// What the authenticator shows (the masked phone or email).
    public let userName: String
    public let algorithms: [Int]
    /// The account's credentials already registered, excluded.
    public let excludedCredentials: [[UInt8]]
    public let expiresAt: Date
}

/// What a client needs to sign in with a passkey (`PublicKeyCredentialRequestOptions`).
public struct PasskeyRequestOptions: Sendable, Equatable {
    public let challenge: [UInt8]
    public let rpID: String
    /// Empty for a discoverable sign-in: the passkey chosen names the account.
    public let allowedCredentials: [[UInt8]]
    public let expiresAt: Date
}

/// A passkey refusal in the engine's terms; a WebAuthn rule broken is `ceremony` with its code.
public enum PasskeyError: Error, Equatable, Sendable {
    /// The tenant has no passkey configuration, or it is off.
    case notEnabled
    case configInvalid(String)
    /// The challenge is unknown, used, expired, or for the other ceremony or another account.
    case challengeInvalid
    case ceremony(WebAuthnError)
    /// The credential is not one of this tenant's (or not the account's).
    case credentialUnknown
    case credentialAlreadyRegistered
    /// The assertion's user handle is not the credential owner's (or is missing where it must be given).
    case userHandleMismatch
    /// The counter did not go up while it is in use: a cloned authenticator, perhaps.
    case counterRegressed
    /// The credential's backup eligibility differs from its registration.
    case backupEligibilityChanged
    /// Deleting a passkey needs a session started in the last few minutes.
    case recentSignInRequired
    case nameInvalid
    /// The account has as many passkeys as it may.
    case tooManyPasskeys
}
