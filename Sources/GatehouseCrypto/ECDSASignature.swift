import COpenSSL
import Foundation

/// Converts P-256 ECDSA signatures between JOSE's raw r‖s form and the DER `ECDSA-Sig-Value`
/// that OpenSSL signs and verifies, using OpenSSL's own `ECDSA_SIG` encoder and parser.
enum ECDSASignature {
    /// Byte length of each of r and s for P-256.
    static let scalarLength = 32

    /// DER for a 64-byte r‖s signature, or nil when the input is not 64 bytes.
    static func der(fromRaw raw: some DataProtocol) throws -> [UInt8]? {
        let bytes = Array(raw)
        guard bytes.count == 2 * scalarLength else { return nil }
        let signature = try OpenSSL.check(ECDSA_SIG_new(), "ECDSA_SIG_new")
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(bytes, Int32(scalarLength), nil) else { throw OpenSSL.failure("BN_bin2bn") }
        guard let s = BN_bin2bn(Array(bytes[scalarLength...]), Int32(scalarLength), nil) else {
            BN_free(r)
            throw OpenSSL.failure("BN_bin2bn")
        }
        // On success ECDSA_SIG_set0 owns r and s; on failure they are still ours to free.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSL.failure("ECDSA_SIG_set0")
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSL.failure("i2d_ECDSA_SIG") }
        var output = [UInt8](repeating: 0, count: Int(length))
        try output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard i2d_ECDSA_SIG(signature, &cursor) == length else { throw OpenSSL.failure("i2d_ECDSA_SIG") }
        }
        return output
    }

    /// The 64-byte r‖s form of a DER signature, each scalar left-padded to 32 bytes.
    static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
        let signature = try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return try OpenSSL.check(d2i_ECDSA_SIG(nil, &cursor, buffer.count), "d2i_ECDSA_SIG")
        }
        defer { ECDSA_SIG_free(signature) }
        var output = [UInt8](repeating: 0, count: 2 * scalarLength)
        let padded = output.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, Int32(scalarLength)) == scalarLength
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + scalarLength,
                                Int32(scalarLength)) == scalarLength
        }
        guard padded else { throw OpenSSL.failure("BN_bn2binpad") }
        return output
    }
}
