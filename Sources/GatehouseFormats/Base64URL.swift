import Foundation

/// URL-safe base64 without padding (RFC 4648 §5, as JOSE uses it), decoded strictly.
public enum Base64URL {
    /// Encodes `data` with the URL-safe alphabet and no padding.
    public static func encode(_ data: some DataProtocol) -> String {
        Base64Codec.url.encode(data)
    }

    /// Decodes canonical unpadded base64url; nil for `=`, `+`, `/`, whitespace, an impossible
    /// length, or non-zero unused bits.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        Base64Codec.url.decode(string)
    }
}
