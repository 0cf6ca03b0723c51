import COpenSSL
import Foundation

// Safe: `pointer` is a `let` whose `X509` is never mutated after parsing (every use only reads it); OpenSSL 3 locks the
// fields it caches lazily inside the structure.
/// A parsed X.509 certificate.
///
/// Unchecked Sendable: the `X509` is never mutated after parsing, and OpenSSL 3 guards the
/// lazily computed fields it caches inside the structure.
public final class Certificate: @unchecked Sendable, Equatable {
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses one DER certificate; trailing bytes are rejected.
    public convenience init(der: some DataProtocol) throws {
        let parsed: OpaquePointer = try withContiguousBytes(der) { bytes in
            var cursor: UnsafePointer<UInt8>? = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let start = cursor
            guard let certificate = d2i_X509(nil, &cursor, bytes.count) else {
                throw CryptoError.invalidCertificate("not a DER certificate: \(OpenSSL.drainErrors())")
            }
            guard let cursor, let start, cursor - start == bytes.count else {
                X509_free(certificate)
                throw CryptoError.invalidCertificate("trailing bytes after the certificate")
            }
            return certificate
        }
        self.init(taking: parsed)
    }

    /// Parses the first `CERTIFICATE` block of a PEM string.
    public convenience init(pem: String) throws {
        let parsed = try MemoryBIO.reading(pem) { bio in
            guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
                throw CryptoError.invalidCertificate("no valid CERTIFICATE block in PEM: \(OpenSSL.drainErrors())")
            }
            return certificate
        }
        self.init(taking: parsed)
    }

    /// Parses every `CERTIFICATE` block of a PEM string, in order (a bundle or chain file).
    public static func all(pem: String) throws -> [Certificate] {
        try MemoryBIO.reading(pem) { bio in
            var certificates: [Certificate] = []
            while let next = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(Certificate(taking: next))
            }
            // The loop ends on an error by design: "no start line" means the input is used up;
            // anything else is a damaged block.
            let error = ERR_peek_last_error()
            let endOfInput = ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE
            guard error == 0 || endOfInput else {
                throw CryptoError.invalidCertificate("bad PEM certificate: \(OpenSSL.drainErrors())")
            }
            OpenSSL.drainErrors()
            return certificates
        }
    }

    /// The DER encoding.
    public var derRepresentation: [UInt8] {
        OpenSSL.mustSucceed {
            let length = i2d_X509(pointer, nil)
            guard length > 0 else { throw OpenSSL.failure("i2d_X509") }
            var output = [UInt8](repeating: 0, count: Int(length))
            try output.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                guard i2d_X509(pointer, &cursor) == length else { throw OpenSSL.failure("i2d_X509") }
            }
            return output
        }
    }

    /// The certificate as one PEM `CERTIFICATE` block.
    public var pemRepresentation: String {
        OpenSSL.mustSucceed {
            try MemoryBIO.collecting { bio in
                try OpenSSL.check(PEM_write_bio_X509(bio, pointer), "PEM_write_bio_X509")
            }
        }
    }

    /// The subject name in RFC 2253 form: RDNs in reverse DER order, e.g. `C=US,O=Apple Inc.,CN=…`.
    public var subject: String { Self.render(X509_get_subject_name(pointer)) }

    /// The issuer name in RFC 2253 form.
    public var issuer: String { Self.render(X509_get_issuer_name(pointer)) }

    /// The subject's first common name, if it has one.
    public var subjectCommonName: String? {
        let name = X509_get_subject_name(pointer)
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry))
        guard length >= 0, let utf8 else {
            OpenSSL.drainErrors()
            return nil
        }
        defer { copenssl_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    /// The serial number as lowercase hex without leading zeros.
    public var serialNumberHex: String {
        let serial = X509_get0_serialNumber(pointer)
        guard let number = ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = BN_bn2bin(number, &bytes)
        return bytes.isEmpty ? "0" : String(bytes.hexString.drop { $0 == "0" })
    }

    /// The start of the validity period.
    public var notBefore: Date { Self.date(X509_get0_notBefore(pointer)) }

    /// The end of the validity period.
    public var notAfter: Date { Self.date(X509_get0_notAfter(pointer)) }

    /// The subject public key as DER SubjectPublicKeyInfo, whatever its algorithm.
    public var publicKeyDER: [UInt8] {
        OpenSSL.mustSucceed {
            let publicKey = X509_get_X509_PUBKEY(pointer)
            let length = i2d_X509_PUBKEY(publicKey, nil)
            guard length > 0 else { throw OpenSSL.failure("i2d_X509_PUBKEY") }
            var output = [UInt8](repeating: 0, count: Int(length))
            try output.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                guard i2d_X509_PUBKEY(publicKey, &cursor) == length else { throw OpenSSL.failure("i2d_X509_PUBKEY") }
            }
            return output
        }
    }

    /// True when subject equals issuer and the certificate's signature verifies with its own key.
    public var isSelfSigned: Bool {
        defer { OpenSSL.drainErrors() }
        return X509_self_signed(pointer, 1) == 1
    }

    /// SHA-256 of the DER encoding, the fingerprint used to pin a root.
    public var sha256Fingerprint: [UInt8] { SHA256.hash(derRepresentation) }

    /// True when the certificate carries an extension with the dotted `oid` (critical or not).
    public func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSL.drainErrors()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// Certificates are equal when their DER encodings are.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        X509_cmp(lhs.pointer, rhs.pointer) == 0
    }

    private static func render(_ name: OpaquePointer?) -> String {
        (try? MemoryBIO.collecting { bio in
            guard X509_NAME_print_ex(bio, name, 0, copenssl_name_flags_rfc2253_utf8()) >= 0 else {
                throw OpenSSL.failure("X509_NAME_print_ex")
            }
        }) ?? ""
    }

    /// Converts an ASN1_TIME by measuring its distance from the epoch, which avoids `timegm`.
    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        OpenSSL.mustSucceed {
            let epoch = try OpenSSL.check(ASN1_TIME_set(nil, 0), "ASN1_TIME_set")
            defer { ASN1_TIME_free(epoch) }
            var days: Int32 = 0
            var seconds: Int32 = 0
            try OpenSSL.check(ASN1_TIME_diff(&days, &seconds, epoch, time), "ASN1_TIME_diff")
            return Date(timeIntervalSince1970: TimeInterval(days) * 86_400 + TimeInterval(seconds))
        }
    }
}
