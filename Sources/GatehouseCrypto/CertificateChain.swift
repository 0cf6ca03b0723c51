import COpenSSL
import Foundation

/// RFC 5280 path validation with OpenSSL's `X509_verify_cert`, at a caller-chosen time.
public enum CertificateChain {
    /// Verifies that `leaf` chains through `intermediates` to one of `trustedRoots` at `time`,
    /// and returns the leaf.
    ///
    /// Only `trustedRoots` are trusted: a root sent along by the peer (x5c's last entry) must not
    /// be passed here, only as an intermediate if at all. Validation uses `time`, not the clock,
    /// so a signed document stays verifiable at its signing date after a certificate expires.
    /// Strict X.509 checks are on (`X509_V_FLAG_X509_STRICT`), and a root's own signature is checked.
    @discardableResult
    public static func verify(
        leaf: Certificate, intermediates: [Certificate], trustedRoots: [Certificate], at time: Date
    ) throws -> Certificate {
        guard !trustedRoots.isEmpty else {
            throw CryptoError.untrustedChain(.untrustedIssuer, code: 0, detail: "no trusted roots configured")
        }
        let store = try OpenSSL.check(X509_STORE_new(), "X509_STORE_new")
        defer { X509_STORE_free(store) }
        for root in trustedRoots {
            try OpenSSL.check(X509_STORE_add_cert(store, root.pointer), "X509_STORE_add_cert")
        }
        let untrusted = try OpenSSL.check(copenssl_sk_X509_new_null(), "sk_X509_new_null")
        // The stack borrows the certificates (no up-ref), so it is freed without freeing them;
        // `intermediates` keeps them alive until this function returns.
        defer { copenssl_sk_X509_free(untrusted) }
        for certificate in intermediates {
            guard copenssl_sk_X509_push(untrusted, certificate.pointer) > 0 else {
                throw OpenSSL.failure("sk_X509_push")
            }
        }
        let context = try OpenSSL.check(X509_STORE_CTX_new(), "X509_STORE_CTX_new")
        defer { X509_STORE_CTX_free(context) }
        try OpenSSL.check(X509_STORE_CTX_init(context, store, leaf.pointer, untrusted), "X509_STORE_CTX_init")
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(time.timeIntervalSince1970.rounded(.down)))
        try OpenSSL.check(
            X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT | X509_V_FLAG_CHECK_SS_SIGNATURE)),
            "X509_VERIFY_PARAM_set_flags"
        )
        let result = X509_verify_cert(context)
        guard result == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            OpenSSL.drainErrors()
            guard result == 0, code != X509_V_OK else {
                throw CryptoError.library(operation: "X509_verify_cert", reason: "internal error \(result)")
            }
            let detail = String(cString: X509_verify_cert_error_string(Int(code)))
            throw CryptoError.untrustedChain(rejection(for: code), code: code, detail: detail)
        }
        return leaf
    }

    /// Verifies against a single trusted root; see `verify(leaf:intermediates:trustedRoots:at:)`.
    @discardableResult
    public static func verify(
        leaf: Certificate, intermediates: [Certificate], trustedRoot: Certificate, at time: Date
    ) throws -> Certificate {
        try verify(leaf: leaf, intermediates: intermediates, trustedRoots: [trustedRoot], at: time)
    }

    private static func rejection(for code: Int32) -> ChainRejection {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            .expired
        case X509_V_ERR_CERT_NOT_YET_VALID:
            .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
            .untrustedIssuer
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            .badSignature
        default:
            .invalid
        }
    }
}
