import Foundation
import GatehouseCrypto
import GatehouseFormats

/// The vendor's HMAC request signature (wire note §5), shared by signed `Application`
/// authentication and the outbound request callback, plus the `Authorization` header grammar
/// of §4.
public enum RequestSigner {
    /// Largest accepted distance, in seconds, between `x-timestamp` and the server clock.
    public static let defaultWindow: TimeInterval = 300

    // MARK: Key

    /// Decodes an application secret into HMAC key bytes; nil when the secret is unusable.
    ///
    /// Secrets are issued as unpadded URL-safe base64. `+`, `/` and correct `=` padding are
    /// also accepted (the PHP SDK's decoder takes them, and the note recommends decoding
    /// leniently), but the result must still be canonical: a secret whose last character
    /// carries nonzero unused bits is rejected, because two spellings of one key would let a
    /// leaked variant pass as a different secret.
    public static func key(fromSecret secret: String) -> [UInt8]? {
        var characters = Array(secret.utf8)
        var padding = 0
        while characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        guard !characters.isEmpty else { return nil }
        if padding > 0 {
            // Padding is accepted only where it belongs: it must complete the last quartet.
            guard padding <= 2, characters.count % 4 != 0, (characters.count + padding) % 4 == 0 else { return nil }
        }
        for index in characters.indices {
            switch characters[index] {
            case UInt8(ascii: "+"): characters[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): characters[index] = UInt8(ascii: "_")
            default: break
            }
        }
        // The strict decoder rejects every other character, a length of 1 mod 4 and
        // nonzero trailing bits.
        guard let key = Base64URL.decode(String(decoding: characters, as: UTF8.self)), !key.isEmpty else {
            return nil
        }
        return key
    }

    // MARK: Signing

    /// The five-line string to sign: method, Content-MD5, Content-Type, `x-timestamp:<ts>`, path.
    ///
    /// `contentMD5Body` is the exact body bytes; absent, empty or ASCII-whitespace-only bodies
    /// give an empty MD5 line. `contentType` nil means the header was not sent.
    public static func stringToSign(
        method: String, contentMD5Body body: [UInt8]?, contentType: String?, timestamp: String, path: String
    ) -> String {
        [
            uppercasedASCII(method),
            contentMD5(body),
            contentType ?? "",
            "x-timestamp:" + timestamp,
            path,
        ].joined(separator: "\n")
    }

    /// `base64(HMAC-SHA256(key, stringToSign))`, standard alphabet with padding.
    public static func sign(
        key: [UInt8], method: String, body: [UInt8]?, contentType: String?, timestamp: String, path: String
    ) -> String {
        let message = stringToSign(
            method: method, contentMD5Body: body, contentType: contentType, timestamp: timestamp, path: path
        )
        return Base64.encode(HMAC.sha256(key: key, message: Array(message.utf8)))
    }

    /// Whether `signature` signs this request and `timestamp` lies within `window` of `now`.
    ///
    /// The received timestamp string is signed exactly as received, and the base64 strings
    /// are compared (in constant time) rather than their decoded bytes, since lenient
    /// decoders map several strings to one byte sequence.
    public static func verify(
        signature: String, key: [UInt8], method: String, body: [UInt8]?, contentType: String?,
        timestamp: String, path: String, now: Date, window: TimeInterval = defaultWindow
    ) -> Bool {
        guard isFresh(timestamp: timestamp, now: now, window: window) else { return false }
        let expected = sign(key: key, method: method, body: body, contentType: contentType, timestamp: timestamp, path: path)
        return constantTimeEquals(Array(expected.utf8), Array(signature.utf8))
    }

    /// Whether `timestamp` is all ASCII digits and `|now − timestamp| ≤ window`, inclusive.
    ///
    /// `now` is truncated to whole seconds because the wire carries whole seconds; otherwise
    /// a timestamp exactly `window` seconds old would fail for most of that second.
    public static func isFresh(timestamp: String, now: Date, window: TimeInterval = defaultWindow) -> Bool {
        let characters = Array(timestamp.utf8)
        // 18 digits always fit an Int64; anything longer is centuries away from any clock.
        guard !characters.isEmpty, characters.count <= 18,
              characters.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let seconds = Int64(timestamp) else { return false }
        let current = now.timeIntervalSince1970.rounded(.down)
        return abs(current - Double(seconds)) <= window
    }

    // MARK: Authorization header

    /// The credential an `Authorization` header presents (§4): `Basic base64(key:secret)`,
    /// `Application <key>` (public) or `Application <key>:<signature>`, signed over the
    /// request's method, body, content type, `x-timestamp` and raw path (§5). nil when the
    /// header is absent or malformed; a signed header without a timestamp proves nothing.
    public static func credential(
        authorization: String?, timestamp: String?, method: String, body: [UInt8], contentType: String?, path: String
    ) -> VerificationCredential? {
        guard let header = authorization?.trimmingWhitespace else {
            return nil
        }
        if header.hasPrefix("Basic ") {
            guard let basic = parseBasic(header) else { return nil }
            return VerificationCredential(appKey: basic.key, proof: .secret(basic.secret))
        }
        guard let parsed = parseApplicationHeader(header) else { return nil }
        guard let signature = parsed.signature else { return VerificationCredential(appKey: parsed.key, proof: .none) }
        let message = stringToSign(method: method, contentMD5Body: body, contentType: contentType, timestamp: timestamp ?? "", path: path)
        return VerificationCredential(appKey: parsed.key, proof: .signature(signature, message: Array(message.utf8), timestamp: timestamp ?? ""))
    }

    /// Parses `Application <key>` (public: nil signature) or `Application <key>:<signature>`
    /// (signed, split at the first colon); nil when the header is not that scheme or malformed.
    ///
    /// Nothing may follow the key but the colon and signature: no spaces, no empty key, no
    /// empty signature. The scheme name is matched case-insensitively (RFC 9110 §11.1).
    public static func parseApplicationHeader(_ value: String) -> (key: String, signature: String?)? {
        guard let credentials = credentials(of: value, scheme: "application") else { return nil }
        guard let colon = credentials.firstIndex(of: ":") else {
            return isToken(credentials) ? (String(credentials), nil) : nil
        }
        let key = credentials[..<colon]
        let signature = credentials[credentials.index(after: colon)...]
        guard isToken(key), isToken(signature, allowingColon: true) else { return nil }
        return (String(key), String(signature))
    }

    /// Parses `Basic base64(<key>:<secret>)`; nil when the scheme differs, the base64 or UTF-8
    /// is invalid, or the decoded value has no colon or starts with one.
    ///
    /// The secret is returned as the string the panel shows, never decoded: basic mode
    /// compares it character for character.
    public static func parseBasic(_ value: String) -> (key: String, secret: String)? {
        guard let credentials = credentials(of: value, scheme: "basic"),
              let bytes = Base64.decode(credentials),
              let decoded = String(validating: bytes, as: UTF8.self),
              let colon = decoded.firstIndex(of: ":"), colon != decoded.startIndex else { return nil }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }

    // MARK: Helpers

    /// Standard padded base64 of the body's MD5, or "" for a body with no content.
    static func contentMD5(_ body: [UInt8]?) -> String {
        guard let body, !body.allSatisfy(isASCIIWhitespace) else { return "" }
        return Base64.encode(MD5.hash(body))
    }

    /// `[ \t\n\x0B\f\r]`: the set the vendor treats as an empty body. U+00A0 and other
    /// non-ASCII spaces are content and get hashed.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The text after `<scheme> ` when `value` starts with that scheme (any case) and one space.
    private static func credentials(of value: String, scheme: String) -> Substring? {
        let prefix = value.prefix(scheme.count + 1)
        guard uppercasedASCII(String(prefix)) == uppercasedASCII(scheme + " ") else { return nil }
        return value[prefix.endIndex...]
    }

    /// Visible ASCII only (so no spaces or trailing text), non-empty, and no colon unless allowed.
    private static func isToken(_ text: Substring, allowingColon: Bool = false) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (0x21...0x7E).contains(byte) && (allowingColon || byte != UInt8(ascii: ":"))
        }
    }

    /// Upper-cases ASCII letters only, so the result never depends on the process locale.
    private static func uppercasedASCII(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
