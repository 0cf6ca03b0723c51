import COpenSSL
import Foundation

extension RS256PublicKey {
    /// The key of a modulus and a public exponent (big-endian, as a COSE RSA key's `n` and `e`
    /// carry them); throws unless OpenSSL accepts it as an RSA key of 2048 to 4096 bits.
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        // 4096 bits at most: the key's check costs in proportion, and a user chooses the key.
        guard !modulus.isEmpty, modulus.count <= 512, !exponent.isEmpty, exponent.count <= 8 else {
            throw CryptoError.invalidKey("an RSA modulus of up to 4096 bits and an exponent of up to 64")
        }
        let n = try OpenSSL.check(BN_bin2bn(modulus, Int32(modulus.count), nil), "BN_bin2bn")
        defer { BN_free(n) }
        let e = try OpenSSL.check(BN_bin2bn(exponent, Int32(exponent.count), nil), "BN_bin2bn")
        defer { BN_free(e) }
        let builder = try OpenSSL.check(OSSL_PARAM_BLD_new(), "OSSL_PARAM_BLD_new")
        defer { OSSL_PARAM_BLD_free(builder) }
        try OpenSSL.check(OSSL_PARAM_BLD_push_BN(builder, copenssl_param_rsa_n(), n), "OSSL_PARAM_BLD_push_BN")
        try OpenSSL.check(OSSL_PARAM_BLD_push_BN(builder, copenssl_param_rsa_e(), e), "OSSL_PARAM_BLD_push_BN")
        let parameters = try OpenSSL.check(OSSL_PARAM_BLD_to_param(builder), "OSSL_PARAM_BLD_to_param")
        defer { OSSL_PARAM_free(parameters) }
        let context = try OpenSSL.check(EVP_PKEY_CTX_new_from_name(nil, copenssl_key_type_rsa(), nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
        var result: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_fromdata(context, &result, copenssl_selection_public_key(), parameters), "EVP_PKEY_fromdata")
        let key = EVPKey(taking: try OpenSSL.check(result, "EVP_PKEY_fromdata"))
        guard EVP_PKEY_get_bits(key.pointer) >= 2048 else { throw CryptoError.invalidKey("not an RSA key of at least 2048 bits") }
        let check = try OpenSSL.check(EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else { throw CryptoError.invalidKey("RSA public key check failed: \(OpenSSL.drainErrors())") }
        self.init(key: key)
    }
}

extension RS256PrivateKey {
    /// A fresh key of `bits` from OpenSSL's CSPRNG, for tests and tools that play a signer.
    public static func generate(bits: Int = 2048) throws -> RS256PrivateKey {
        let context = try OpenSSL.check(EVP_PKEY_CTX_new_from_name(nil, copenssl_key_type_rsa(), nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try OpenSSL.check(EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)), "EVP_PKEY_CTX_set_rsa_keygen_bits")
        var generated: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_generate(context, &generated), "EVP_PKEY_generate")
        return RS256PrivateKey(taking: try OpenSSL.check(generated, "EVP_PKEY_generate"))
    }

    /// The public modulus and exponent, big-endian.
    public func publicComponents() throws -> (modulus: [UInt8], exponent: [UInt8]) {
        func component(_ name: UnsafePointer<CChar>) throws -> [UInt8] {
            var number: OpaquePointer?
            try OpenSSL.check(EVP_PKEY_get_bn_param(pointer, name, &number), "EVP_PKEY_get_bn_param")
            guard let number else { throw OpenSSL.failure("EVP_PKEY_get_bn_param") }
            defer { BN_free(number) }
            var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
            _ = BN_bn2bin(number, &bytes)
            return bytes
        }
        return (try component(copenssl_param_rsa_n()), try component(copenssl_param_rsa_e()))
    }
}
