/// Why App Store signed data was refused; `code` is stable, `detail` is for logs only.
public struct AppleVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stable reason codes callers branch on.
    public enum Code: String, Sendable, Equatable {
        /// Not three base64url segments, or a header or payload that does not decode.
        case invalidFormat
        /// The header's `alg` is not `ES256`.
        case invalidAlgorithm
        /// `x5c` is missing or does not hold exactly three entries.
        case invalidChainLength
        /// An `x5c` entry is not standard base64 of one DER certificate, or the leaf key is not P-256.
        case invalidCertificate
        /// The chain does not lead to a configured root, or breaks an RFC 5280 rule.
        case untrustedChain
        /// A certificate had expired at the payload's `signedDate`.
        case expiredAtSigningDate
        /// A certificate was not yet valid at the payload's `signedDate`.
        case notYetValidAtSigningDate
        /// The leaf or intermediate lacks Apple's marker extension.
        case missingMarkerOID
        /// The ES256 signature does not verify with the leaf key.
        case badSignature
        /// The payload's bundle id is not the tenant's.
        case wrongBundleId
        /// The payload's environment is unknown or not allowed for this tenant.
        case wrongEnvironment
        /// A production notification names another app.
        case wrongAppAppleId
        /// The verifier configuration itself is refused (e.g. an extra root on a production tenant).
        case invalidConfiguration
    }

    /// The stable reason.
    public let code: Code
    /// A human-readable explanation, never shown to end users.
    public let detail: String

    /// Creates an error with `code` and a log `detail`.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`, for logs.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}
