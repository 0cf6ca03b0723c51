/// Why a JWS or JWT was refused.
public enum JWTError: Error, Equatable, Sendable {
    /// Not three base64url segments, a header or payload that is not a JSON object, a claim of
    /// the wrong type, or a critical header extension this verifier does not understand.
    case malformed
    /// The `alg` header is not the one algorithm the caller accepts (including `none`).
    case unsupportedAlgorithm(String)
    /// The signature does not verify with the given key.
    case badSignature
    /// `exp` is at or before the validation time, even allowing for leeway.
    case expired
    /// `nbf` is after the validation time, even allowing for leeway.
    case notYetValid
}
