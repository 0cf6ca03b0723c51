import Foundation

/// Standard base64 with `=` padding (RFC 4648 §4), decoded strictly.
public enum Base64 {
    /// Encodes `data` with the standard alphabet and padding.
    public static func encode(_ data: some DataProtocol) -> String {
        Base64Codec.standard.encode(data)
    }

    /// Decodes canonical padded base64; nil for whitespace, URL-alphabet characters, missing or
    /// extra padding, or non-zero unused bits.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        Base64Codec.standard.decode(string)
    }
}
