import Foundation
import GatehouseFormats

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

    /// Decodes a header's exact JSON bytes; throws `.malformed` unless they are a JSON object
    /// with a string `alg` and no member named twice at any depth (RFC 7515 §4: a repeated
    /// name, such as `alg` once `ES256` and once `HS256`, would let two readers see two headers).
    public static func parse(_ json: [UInt8]) throws -> JOSEHeader {
        // One read by the linear-time reader, which refuses a repeated name, then the one decoder.
        guard let tree = try? JSONReader.parse(Data(json)),
              let header = try? JSONBodyDecoder(unknownKeys: .ignore).decode(JOSEHeader.self, from: tree)
        else {
            throw JWTError.malformed
        }
        return header
    }
}
