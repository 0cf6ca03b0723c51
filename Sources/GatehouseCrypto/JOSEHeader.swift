/// The JOSE header fields Gatehouse reads (RFC 7515 §4.1); others are ignored.
public struct JOSEHeader: Decodable, Equatable, Sendable {
    /// The signature algorithm, e.g. `HS256` or `ES256`.
    public let alg: String
    /// The media type of the whole token, usually `JWT`.
    public let typ: String?
    /// A hint naming which key signed the token.
    public let kid: String?
    /// The certificate chain, leaf first, each entry standard base64 of DER (not base64url, not PEM).
    public let x5c: [String]?
    /// Header names the signer requires the verifier to understand.
    public let crit: [String]?
}
