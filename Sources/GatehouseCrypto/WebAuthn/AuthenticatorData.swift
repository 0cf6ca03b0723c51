import GatehouseFormats

/// An authenticator's data (WebAuthn §6.1): the relying party's hash, the flags, the counter,
/// and at registration the attested credential (its id and COSE public key).
public struct AuthenticatorData: Sendable {
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The attested credential (§6.5.1), present when AT is set.
    public struct AttestedCredential: Sendable {
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        /// The COSE key's bytes as the authenticator wrote them (stored as received).
        public let publicKeyBytes: [UInt8]
        public let publicKey: CBOR
    }

    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let attested: AttestedCredential?

    /// The longest credential id WebAuthn allows.
    public static let maxCredentialIDLength = 1023

    /// Reads the bytes; the attested credential and extensions must end exactly at the end.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .authenticatorDataMalformed }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var index = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= index + 18 else { throw .authenticatorDataMalformed }
            let aaguid = Array(bytes[index..<index + 16])
            let length = Int(bytes[index + 16]) << 8 | Int(bytes[index + 17])
            index += 18
            guard length > 0, length <= Self.maxCredentialIDLength, bytes.count >= index + length else { throw .authenticatorDataMalformed }
            let credentialID = Array(bytes[index..<index + length])
            index += length
            guard index < bytes.count, let (key, used) = try? CBORReader.decodePrefix(bytes[index...]) else { throw .authenticatorDataMalformed }
            attested = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[index..<index + used]), publicKey: key)
            index += used
        } else {
            attested = nil
        }
        if flags.contains(.extensionData) {
            guard index < bytes.count, let (_, used) = try? CBORReader.decodePrefix(bytes[index...]) else { throw .authenticatorDataMalformed }
            index += used
        }
        guard index == bytes.count else { throw .authenticatorDataMalformed }
    }
}
