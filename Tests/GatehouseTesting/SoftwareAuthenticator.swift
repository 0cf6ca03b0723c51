import Foundation
import GatehouseCrypto
import GatehouseFormats

/// A passkey authenticator in software for tests: it makes P-256, Ed25519 or RSA credentials
/// and answers both ceremonies the way a platform authenticator does (attestation `none`,
/// UP and UV set, BE and BS set as synced passkeys have them, a counter of 0), with every
/// field a test may bend to make a response that must be refused.
public final class SoftwareAuthenticator: @unchecked Sendable {
    public enum Algorithm: Sendable, CaseIterable { case es256, eddsa, rs256 }

    enum PrivateKey {
        case es256(P256PrivateKey)
        case eddsa(Ed25519PrivateKey)
        case rs256(RS256PrivateKey)
    }

    /// A credential this authenticator holds.
    public struct Credential: @unchecked Sendable {
        public let id: [UInt8]
        public let userHandle: [UInt8]
        public let rpID: String
        let key: PrivateKey
        public var signCount: UInt32
    }

    /// What a ceremony's answer says, each field bendable.
    public struct Answer: Sendable {
        public var type: String?
        public var origin: String?
        public var rpID: String?
        public var challenge: [UInt8]?
        public var flags: AuthenticatorData.Flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        public var signCount: UInt32?
        public var crossOrigin = false
        /// `none` or `packed` (self attestation).
        public var format = "none"
        /// Pairs put in `attStmt` for `none`, beside `alg` and `sig` for `packed`.
        public var extraStatement: [CBORPair] = []
        public init() {}
    }

    public private(set) var credentials: [Credential] = []

    public init() {}

    /// A new credential and its registration response for `challenge`.
    public func register(
        algorithm: Algorithm, rpID: String, origin: String, challenge: [UInt8], userHandle: [UInt8], answer: Answer = Answer()
    ) throws -> (credential: Credential, response: WebAuthnRelyingParty.Registration) {
        let id = Array(SHA256.hash(Array(UUID().uuidString.utf8)).prefix(16))
        let (key, cose): (PrivateKey, CBOR)
        switch algorithm {
        case .es256:
            let made = try P256PrivateKey.generate()
            let point = made.publicKey.uncompressedPoint
            (key, cose) = (.es256(made), .map([pair(1, .int(2)), pair(3, .int(-7)), pair(-1, .int(1)), pair(-2, .bytes(Array(point[1..<33]))),
                                                pair(-3, .bytes(Array(point[33..<65])))]))
        case .eddsa:
            let made = try Ed25519PrivateKey.generate()
            (key, cose) = (.eddsa(made), .map([pair(1, .int(1)), pair(3, .int(-8)), pair(-1, .int(6)), pair(-2, .bytes(made.publicKey.rawRepresentation))]))
        case .rs256:
            let made = try RS256PrivateKey.generate()
            let (n, e) = try made.publicComponents()
            (key, cose) = (.rs256(made), .map([pair(1, .int(3)), pair(3, .int(-257)), pair(-1, .bytes(n)), pair(-2, .bytes(e))]))
        }
        let credential = Credential(id: id, userHandle: userHandle, rpID: rpID, key: key, signCount: answer.signCount ?? 0)
        let clientData = Self.clientData(type: answer.type ?? "webauthn.create", challenge: answer.challenge ?? challenge, origin: answer.origin ?? origin,
            crossOrigin: answer.crossOrigin)
        let authData = Self.authenticatorData(rpID: answer.rpID ?? rpID, flags: answer.flags.union(.attestedCredentialData), signCount: answer.signCount ?? 0)
            + [UInt8](repeating: 0, count: 16) + [UInt8(id.count >> 8), UInt8(id.count & 0xFF)] + id + cose.encoded
        var statement = answer.extraStatement
        if answer.format == "packed" {
            statement = [CBORPair(key: .text("alg"), value: cose[3]!), CBORPair(key: .text("sig"), value: .bytes(try sign(key, authData + SHA256.hash(clientData))))]
                + answer.extraStatement
        }
        let object = CBOR.map([
            CBORPair(key: .text("fmt"), value: .text(answer.format)), CBORPair(key: .text("attStmt"), value: .map(statement)),
            CBORPair(key: .text("authData"), value: .bytes(authData)),
        ])
        credentials.append(credential)
        return (credential, WebAuthnRelyingParty.Registration(id: Base64URL.encode(id), rawID: id, clientDataJSON: clientData, attestationObject: object.encoded))
    }

    /// An assertion by `credential` for `challenge`; the counter goes up by one when it is not 0.
    public func assert(_ credential: Credential, origin: String, challenge: [UInt8], answer: Answer = Answer()) throws -> WebAuthnRelyingParty.Assertion {
        let clientData = Self.clientData(type: answer.type ?? "webauthn.get", challenge: answer.challenge ?? challenge, origin: answer.origin ?? origin,
            crossOrigin: answer.crossOrigin)
        let authData = Self.authenticatorData(rpID: answer.rpID ?? credential.rpID, flags: answer.flags, signCount: answer.signCount ?? credential.signCount)
        let signature = try sign(credential.key, authData + SHA256.hash(clientData))
        return WebAuthnRelyingParty.Assertion(
            id: Base64URL.encode(credential.id), rawID: credential.id, clientDataJSON: clientData, authenticatorData: authData, signature: signature,
            userHandle: credential.userHandle)
    }

    func sign(_ key: PrivateKey, _ message: [UInt8]) throws -> [UInt8] {
        switch key {
        case .es256(let key): try key.derSignature(for: message)
        case .eddsa(let key): try key.signature(for: message)
        case .rs256(let key): try key.signature(for: message)
        }
    }

    /// The client's JSON, in the field order browsers write, with the extra field Chrome adds.
    static func clientData(type: String, challenge: [UInt8], origin: String, crossOrigin: Bool) -> [UInt8] {
        let escapedOrigin = origin.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return Array(("{\"type\":\"\(type)\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":\"\(escapedOrigin)\",\"crossOrigin\":\(crossOrigin),"
            + "\"other_keys_can_be_added_here\":\"do not compare clientDataJSON against a template\"}").utf8)
    }

    static func authenticatorData(rpID: String, flags: AuthenticatorData.Flags, signCount: UInt32) -> [UInt8] {
        SHA256.hash(Array(rpID.utf8)) + [flags.rawValue] + [UInt8(signCount >> 24), UInt8(signCount >> 16 & 0xFF), UInt8(signCount >> 8 & 0xFF), UInt8(signCount & 0xFF)]
    }

    private func pair(_ label: Int64, _ value: CBOR) -> CBORPair { CBORPair(key: .int(label), value: value) }
}
