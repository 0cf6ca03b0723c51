import Foundation
import GatehouseAccountsEngine
import GatehouseCrypto
import GatehouseFormats
import GatehouseWire

/// Passkeys between the engine's values and the Datacove wire (WebAuthn's JSON forms, whose
/// binary fields are base64url).
enum PasskeyJSON {
    /// Options live five minutes; clients are told so in milliseconds.
    static let timeout = Int(AccountsEngine.passkeyChallengeLifetime * 1000)

    static func creation(_ options: PasskeyCreationOptions) -> DatacoveWire.PasskeyCreationOptions {
        DatacoveWire.PasskeyCreationOptions(
            rp: .init(id: options.rpID, name: options.rpName),
            user: .init(id: Base64URL.encode(options.userID), name: options.userName, displayName: options.userName),
            challenge: Base64URL.encode(options.challenge), algorithms: options.algorithms, timeout: timeout,
            excludeCredentials: options.excludedCredentials.map { .init(id: Base64URL.encode($0)) })
    }

    static func request(_ options: PasskeyRequestOptions) -> DatacoveWire.PasskeyRequestOptions {
        DatacoveWire.PasskeyRequestOptions(
            challenge: Base64URL.encode(options.challenge), rpId: options.rpID, timeout: timeout,
            allowCredentials: options.allowedCredentials.map { .init(id: Base64URL.encode($0)) })
    }

    static func info(_ passkey: Passkey) -> DatacoveWire.PasskeyInfo {
        DatacoveWire.PasskeyInfo(
            id: passkey.id, name: passkey.name, createdAt: WireDate.string(passkey.createdAt), lastUsedAt: passkey.lastUsedAt.map(WireDate.string),
            backedUp: passkey.backedUp)
    }

    static func config(_ config: PasskeyConfig) -> DatacoveWire.PasskeyConfig {
        DatacoveWire.PasskeyConfig(rpId: config.rpID, rpName: config.rpName, origins: config.origins, iosAppIds: config.iosAppIDs, enabled: config.enabled)
    }

    /// A registration as the relying party checks it; a field that is not base64url is refused.
    static func registration(_ credential: DatacoveWire.PasskeyRegistrationCredential) throws -> WebAuthnRelyingParty.Registration {
        try check(credential.id, credential.type)
        return WebAuthnRelyingParty.Registration(
            id: credential.id, rawID: try bytes(credential.rawId, "credential.rawId"), type: credential.type,
            clientDataJSON: try bytes(credential.response.clientDataJSON, "credential.response.clientDataJSON"),
            attestationObject: try bytes(credential.response.attestationObject, "credential.response.attestationObject"))
    }

    static func assertion(_ credential: DatacoveWire.PasskeyAssertionCredential) throws -> WebAuthnRelyingParty.Assertion {
        try check(credential.id, credential.type)
        return WebAuthnRelyingParty.Assertion(
            id: credential.id, rawID: try bytes(credential.rawId, "credential.rawId"), type: credential.type,
            clientDataJSON: try bytes(credential.response.clientDataJSON, "credential.response.clientDataJSON"),
            authenticatorData: try bytes(credential.response.authenticatorData, "credential.response.authenticatorData"),
            signature: try bytes(credential.response.signature, "credential.response.signature"),
            userHandle: try credential.response.userHandle.map { try bytes($0, "credential.response.userHandle") })
    }

    /// The credential's `id` is base64url text and its `type` printable: what else they must
    /// be (`rawId` itself, `public-key`) is the ceremony's to refuse, with its own code.
    static func check(_ id: String, _ type: String) throws {
        _ = try bytes(id, "credential.id")
        guard !type.isEmpty, type.utf8.count <= 64, type.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw DatacoveError.validation("credential.type must be public-key")
        }
    }

    /// The bytes of a base64url field (at most 64 KiB decoded: no WebAuthn field comes near).
    static func bytes(_ text: String, _ field: String) throws -> [UInt8] {
        guard text.utf8.count <= 90_000, let bytes = Base64URL.decode(text) else { throw DatacoveError.validation("\(field) must be base64url") }
        return bytes
    }
}
