import GatehouseCrypto

/// Apple Root CA - G3, the only root Apple's App Store signed data chains to; shipped in the binary.
public enum AppleRootCertificate {
    /// The SHA-256 fingerprint of the DER certificate, as Apple publishes it.
    public static let sha256Fingerprint = "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79"

    /// The certificate as PEM (public data, from Apple PKI; also at shared/specs/apple-root-ca-g3.pem).
    public static let pem = """
-----BEGIN CERTIFICATE-----
MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwS
QXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9u
IEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBS
b290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9y
aXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtf
TjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517
IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gA
MGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4
at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
6BgD56KyKA==
-----END CERTIFICATE-----
"""

    /// Parses the embedded root and checks its fingerprint; throws if either fails.
    public static func pinned() throws -> Certificate {
        try pinned(pem: pem)
    }

    /// Parses `pem` and throws unless its SHA-256 fingerprint is Apple Root CA - G3's.
    ///
    /// Separate from `pinned()` so a test can show that a different certificate is refused.
    public static func pinned(pem: String) throws -> Certificate {
        let certificate: Certificate
        do {
            certificate = try Certificate(pem: pem)
        } catch {
            throw AppleVerificationError(.invalidCertificate, "embedded Apple root does not parse: \(error)")
        }
        guard fingerprint(of: certificate) == sha256Fingerprint else {
            throw AppleVerificationError(.untrustedChain, "Apple root fingerprint mismatch: \(fingerprint(of: certificate))")
        }
        return certificate
    }

    /// The colon-separated upper-case SHA-256 fingerprint, in the form `openssl x509 -fingerprint` prints.
    public static func fingerprint(of certificate: Certificate) -> String {
        certificate.sha256Fingerprint.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
