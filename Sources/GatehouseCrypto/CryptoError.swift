/// A failure from the crypto layer: a library call, unusable key material, or a rejected certificate.
public enum CryptoError: Error, Equatable, Sendable {
    /// An OpenSSL call failed; `reason` is the library's own error string.
    case library(operation: String, reason: String)
    /// Key bytes, PEM or JWK coordinates that do not describe a usable key of the expected kind.
    case invalidKey(String)
    /// Bytes that are not a well-formed X.509 certificate.
    case invalidCertificate(String)
    /// Path validation failed; `code` is OpenSSL's `X509_V_ERR_*` value, `detail` its text.
    case untrustedChain(ChainRejection, code: Int32, detail: String)
}

/// Why a certificate chain was rejected, grouped into the cases callers act on differently.
public enum ChainRejection: Equatable, Sendable {
    /// A certificate's notAfter is before the validation time.
    case expired
    /// A certificate's notBefore is after the validation time.
    case notYetValid
    /// No path leads from the leaf to one of the trusted roots.
    case untrustedIssuer
    /// A signature in the chain does not verify.
    case badSignature
    /// Any other RFC 5280 violation (constraints, key usage, strict-mode encoding rules).
    case invalid
}
