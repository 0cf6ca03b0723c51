import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA-1 as every
/// authenticator app computes them): a second factor for operators.
public struct TOTP: Sendable, Equatable {
    public let secret: [UInt8]
    public let digits: Int
    /// Seconds each code lasts.
    public let period: Int

    public init(secret: [UInt8], digits: Int = 6, period: Int = 30) {
        precondition((6...8).contains(digits) && period > 0, "TOTP needs 6 to 8 digits and a positive period")
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// A new secret of 20 random bytes (160 bits, RFC 4226's recommendation).
    public static func newSecret(random: any RandomSource) -> [UInt8] { random.bytes(20) }

    /// The time step `date` falls in.
    public func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down)) }

    /// The code of time step `step`.
    public func code(step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = HMAC.sha1(key: secret, message: message)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    public func code(at date: Date) -> String { code(step: step(at: date)) }

    /// The step whose code `code` is, within `window` steps either side of now (clocks drift),
    /// or nil. Every candidate is compared in constant time; the caller refuses a step it has
    /// already accepted, so a code is used once.
    public func matchingStep(_ code: String, at date: Date, window: Int = 1) -> Int64? {
        guard code.utf8.count == digits, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let now = step(at: date)
        var found: Int64?
        for candidate in (now - Int64(window))...(now + Int64(window)) where constantTimeEquals(Array(self.code(step: candidate).utf8), Array(code.utf8)) {
            found = found ?? candidate
        }
        return found
    }

    /// The `otpauth://` URI an authenticator app reads (from a QR code): the account and
    /// issuer as labels, the secret in base32.
    public func provisioningURI(account: String, issuer: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "otpauth://totp/\(escaped(issuer)):\(escaped(account))?secret=\(Base32.encode(secret, padded: false))"
            + "&issuer=\(escaped(issuer))&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }
}

/// Base32 (RFC 4648 §6), the alphabet authenticator apps take secrets in.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8], padded: Bool = true) -> String {
        var output: [UInt8] = []
        var buffer: UInt64 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt64(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt64(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt64(5 - bits)) & 31)]) }
        if padded { while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) } }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text` (upper or lower case, padding optional); nil for any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt64 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt64(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt64(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
