import Foundation
import GatehouseFormats

/// A relying party's checks of the two ceremonies (WebAuthn Level 3 §7.1 and §7.2) over the
/// bytes a client sent. It keeps nothing: the caller holds the challenge (purpose, account,
/// expiry, single use), finds the credential, compares the user handle and the counter, and
/// stores what comes back.
///
/// ```swift
/// let party = WebAuthnRelyingParty(id: "example.com", origins: ["https://example.com"])
/// let credential = try party.verifyRegistration(response, challenge: stored, algorithms: [-7, -8, -257])
/// ```
public struct WebAuthnRelyingParty: Sendable {
    public let id: String
    public let origins: Set<String>
    /// Whether the user must have been verified (Face ID, a PIN), not only present.
    public let requireUserVerification: Bool

    public init(id: String, origins: Set<String>, requireUserVerification: Bool = true) {
        self.id = id
        self.origins = origins
        self.requireUserVerification = requireUserVerification
    }

    /// What a registration response carries (`PublicKeyCredential` with an attestation response).
    public struct Registration: Sendable {
        public var id: String
        public var rawID: [UInt8]
        public var type: String
        public var clientDataJSON: [UInt8]
        public var attestationObject: [UInt8]
        public init(id: String, rawID: [UInt8], type: String = "public-key", clientDataJSON: [UInt8], attestationObject: [UInt8]) {
            (self.id, self.rawID, self.type, self.clientDataJSON, self.attestationObject) = (id, rawID, type, clientDataJSON, attestationObject)
        }
    }

    /// What a sign-in response carries (`PublicKeyCredential` with an assertion response).
    public struct Assertion: Sendable {
        public var id: String
        public var rawID: [UInt8]
        public var type: String
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]
        public var userHandle: [UInt8]?
        public init(
            id: String, rawID: [UInt8], type: String = "public-key", clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
            userHandle: [UInt8]?
        ) {
            (self.id, self.rawID, self.type, self.clientDataJSON) = (id, rawID, type, clientDataJSON)
            (self.authenticatorData, self.signature, self.userHandle) = (authenticatorData, signature, userHandle)
        }
    }

    /// A credential a registration proved: what the relying party stores.
    public struct NewCredential: Sendable {
        public let id: [UInt8]
        public let publicKey: COSEKey
        /// The COSE key as received.
        public let publicKeyBytes: [UInt8]
        public let aaguid: [UInt8]
        public let signCount: UInt32
        public let userVerified: Bool
        public let backupEligible: Bool
        public let backedUp: Bool
        /// `none` or `packed` (self attestation).
        public let format: String
    }

    /// What a verified assertion says about the authenticator now.
    public struct Verified: Sendable {
        public let signCount: UInt32
        public let userVerified: Bool
        public let backupEligible: Bool
        public let backedUp: Bool
    }

    /// §7.1: checks a registration against the challenge given and the algorithms offered.
    public func verifyRegistration(_ response: Registration, challenge: [UInt8], algorithms: Set<Int>) throws(WebAuthnError) -> NewCredential {
        try checkCredential(id: response.id, rawID: response.rawID, type: response.type)
        try checkClientData(response.clientDataJSON, type: "webauthn.create", challenge: challenge)
        guard let object = try? CBORReader.decode(response.attestationObject), object.pairs != nil,
            let format = object["fmt"]?.textString, let statement = object["attStmt"], let statementPairs = statement.pairs,
            let authDataBytes = object["authData"]?.byteString
        else { throw .attestationMalformed }
        let authData = try AuthenticatorData(authDataBytes)
        let flags = try checkAuthenticatorData(authData)
        guard let attested = authData.attested else { throw .attestedCredentialMissing }
        guard attested.credentialID == response.rawID else { throw .idMismatch }
        let key: COSEKey
        do { key = try COSEKey(attested.publicKey) } catch { throw .publicKeyInvalid }
        guard algorithms.contains(key.algorithm) else { throw .algorithmNotOffered }
        switch format {
        case "none":
            guard statementPairs.isEmpty else { throw .attestationStatementInvalid }
        case "packed":
            // Self attestation only (no x5c): signed by the new credential's own key.
            guard statement["x5c"] == nil, let alg = statement["alg"]?.integer, alg == Int64(key.algorithm),
                let signature = statement["sig"]?.byteString, statementPairs.count == 2
            else { throw .attestationStatementInvalid }
            guard key.verify(signature: signature, message: authDataBytes + SHA256.hash(response.clientDataJSON)) else { throw .signatureInvalid }
        default:
            throw .attestationFormatUnsupported
        }
        return NewCredential(
            id: attested.credentialID, publicKey: key, publicKeyBytes: attested.publicKeyBytes, aaguid: attested.aaguid, signCount: authData.signCount,
            userVerified: flags.contains(.userVerified), backupEligible: flags.contains(.backupEligible), backedUp: flags.contains(.backedUp),
            format: format)
    }

    /// §7.2: checks an assertion by the credential whose key is `publicKey`, against the
    /// challenge given. The signature covers `authenticatorData ‖ SHA-256(clientDataJSON)`.
    public func verifyAssertion(_ response: Assertion, challenge: [UInt8], publicKey: COSEKey) throws(WebAuthnError) -> Verified {
        try checkCredential(id: response.id, rawID: response.rawID, type: response.type)
        try checkClientData(response.clientDataJSON, type: "webauthn.get", challenge: challenge)
        let authData = try AuthenticatorData(response.authenticatorData)
        let flags = try checkAuthenticatorData(authData)
        guard authData.attested == nil else { throw .authenticatorDataMalformed }
        guard publicKey.verify(signature: response.signature, message: response.authenticatorData + SHA256.hash(response.clientDataJSON)) else {
            throw .signatureInvalid
        }
        return Verified(
            signCount: authData.signCount, userVerified: flags.contains(.userVerified), backupEligible: flags.contains(.backupEligible),
            backedUp: flags.contains(.backedUp))
    }

    /// Whether a counter may follow the one stored (§6.1.1): while either is not 0, it must go
    /// up; a synced passkey that always sends 0 passes ("once 0, always 0").
    public static func signCountAcceptable(stored: UInt32, received: UInt32) -> Bool {
        (stored == 0 && received == 0) || received > stored
    }

    /// `id` is `rawId` in base64url, and the type is `public-key`.
    private func checkCredential(id: String, rawID: [UInt8], type: String) throws(WebAuthnError) {
        guard type == "public-key" else { throw .typeNotPublicKey }
        guard !rawID.isEmpty, rawID.count <= AuthenticatorData.maxCredentialIDLength, Base64URL.decode(id) == rawID, Base64URL.encode(rawID) == id else {
            throw .idMismatch
        }
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) {
        let client = try ClientData(bytes)
        guard client.type == type else { throw .wrongCeremony }
        guard !challenge.isEmpty, constantTimeEquals(client.challenge, challenge) else { throw .challengeMismatch }
        guard origins.contains(client.origin) else { throw .originNotAllowed }
        guard !client.crossOrigin else { throw .crossOrigin }
    }

    /// The relying party's hash and the flags every ceremony checks.
    private func checkAuthenticatorData(_ data: AuthenticatorData) throws(WebAuthnError) -> AuthenticatorData.Flags {
        guard constantTimeEquals(data.rpIDHash, SHA256.hash(Array(id.utf8))) else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        if requireUserVerification, !data.flags.contains(.userVerified) { throw .userNotVerified }
        if data.flags.contains(.backedUp), !data.flags.contains(.backupEligible) { throw .backupStateInvalid }
        return data.flags
    }
}
