import COpenSSL
import Foundation
import GatehouseFormats

/// A NIST P-256 public key that verifies ECDSA-SHA-256 signatures (JOSE ES256).
public struct P256PublicKey: Sendable, Equatable {
    let key: EVPKey

    /// Curve name OpenSSL reports for P-256.
    static let curveName = "prime256v1"

    /// Wraps a parsed key after checking it is an on-curve P-256 public key.
    init(validating key: EVPKey) throws {
        guard key.curveName == Self.curveName else {
            throw CryptoError.invalidKey("expected an EC P-256 key, got \(key.curveName ?? "a non-EC key")")
        }
        let context = try OpenSSL.check(EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            throw CryptoError.invalidKey("public point check failed: \(OpenSSL.drainErrors())")
        }
        self.key = key
    }

    /// Creates a key from the 65-byte uncompressed point `04 ‖ x ‖ y` (X9.63).
    public init(uncompressedPoint: some DataProtocol) throws {
        var point = Array(uncompressedPoint)
        guard point.count == 65, point.first == 0x04 else {
            throw CryptoError.invalidKey("a P-256 uncompressed point is 65 bytes starting with 0x04")
        }
        var group = Array(Self.curveName.utf8CString)
        let imported: OpaquePointer = try group.withUnsafeMutableBufferPointer { groupName in
            try point.withUnsafeMutableBytes { pointBytes in
                // fromdata decodes the point and refuses one that is off the curve; the public
                // check in init(validating:) then repeats that on every import path.
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(copenssl_param_group_name(), groupName.baseAddress, 0),
                    OSSL_PARAM_construct_octet_string(
                        copenssl_param_public_key(), pointBytes.baseAddress, pointBytes.count
                    ),
                    OSSL_PARAM_construct_end(),
                ]
                let context = try OpenSSL.check(
                    EVP_PKEY_CTX_new_from_name(nil, copenssl_key_type_ec(), nil), "EVP_PKEY_CTX_new_from_name"
                )
                defer { EVP_PKEY_CTX_free(context) }
                try OpenSSL.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
                var result: OpaquePointer?
                guard EVP_PKEY_fromdata(context, &result, copenssl_selection_public_key(), &parameters) == 1,
                      let result
                else {
                    throw CryptoError.invalidKey("not a point on P-256: \(OpenSSL.drainErrors())")
                }
                return result
            }
        }
        try self.init(validating: EVPKey(taking: imported))
    }

    /// Creates a key from a JWK's base64url `x` and `y` coordinates (32 bytes each).
    public init(jwkX x: String, y: String) throws {
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
              xBytes.count == 32, yBytes.count == 32
        else {
            throw CryptoError.invalidKey("JWK x and y must be 32-byte base64url values")
        }
        try self.init(uncompressedPoint: [0x04] + xBytes + yBytes)
    }

    /// Creates a key from DER SubjectPublicKeyInfo.
    public init(subjectPublicKeyInfo der: some DataProtocol) throws {
        try self.init(validating: EVPKey.parse(subjectPublicKeyInfo: der))
    }

    /// Creates a key from a PEM `PUBLIC KEY` (SubjectPublicKeyInfo) block.
    public init(pem: String) throws {
        let parsed = try MemoryBIO.reading(pem) { bio in
            try OpenSSL.check(PEM_read_bio_PUBKEY(bio, nil, nil, nil), "PEM_read_bio_PUBKEY")
        }
        try self.init(validating: EVPKey(taking: parsed))
    }

    /// Creates a key from a certificate's subject public key; throws unless it is P-256.
    public init(certificate: Certificate) throws {
        try self.init(subjectPublicKeyInfo: certificate.publicKeyDER)
    }

    /// The 65-byte uncompressed point `04 ‖ x ‖ y`.
    public var uncompressedPoint: [UInt8] {
        OpenSSL.mustSucceed {
            var output = [UInt8](repeating: 0, count: 65)
            var length = 0
            try OpenSSL.check(
                EVP_PKEY_get_octet_string_param(
                    key.pointer, copenssl_param_encoded_public_key(), &output, output.count, &length
                ),
                "EVP_PKEY_get_octet_string_param(encoded-pub-key)"
            )
            return Array(output.prefix(length))
        }
    }

    /// The DER SubjectPublicKeyInfo encoding.
    public var subjectPublicKeyInfo: [UInt8] {
        OpenSSL.mustSucceed { try key.subjectPublicKeyInfo() }
    }

    /// True when `rawSignature` (64-byte r‖s, as in JOSE) is a valid signature of SHA-256(`message`).
    public func verify(rawSignature: some DataProtocol, message: some DataProtocol) -> Bool {
        guard let der = try? ECDSASignature.der(fromRaw: rawSignature) else {
            OpenSSL.drainErrors()
            return false
        }
        return verify(derSignature: der, message: message)
    }

    /// True when `derSignature` (an X9.62 `ECDSA-Sig-Value`) is a valid signature of SHA-256(`message`).
    ///
    /// Any failure, including a library error, answers false: a verifier must fail closed.
    public func verify(derSignature: some DataProtocol, message: some DataProtocol) -> Bool {
        key.verifySHA256(signature: derSignature, message: message)
    }

    /// Keys are equal when OpenSSL says they hold the same public point.
    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
        EVP_PKEY_eq(lhs.key.pointer, rhs.key.pointer) == 1
    }
}
