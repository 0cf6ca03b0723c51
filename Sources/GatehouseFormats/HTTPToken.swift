/// RFC 9110 §5.6.2 tokens (header names, parameter names), shared by the transport's screening
/// and the engines' rules so that both mean the same by "a token".
public enum HTTPToken {
    /// One `tchar`.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        // ! # $ % & ' * + - . ^ _ ` | ~
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Whether two field names are one (RFC 9110 §5.1: case-insensitive). Names are tokens,
    /// so only ASCII letters fold; anything else must match byte for byte.
    public static func namesMatch(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))
        }
    }

    /// A non-empty run of `tchar`.
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }
}
