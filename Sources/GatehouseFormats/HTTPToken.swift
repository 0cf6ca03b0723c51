/// RFC 9110 §5.6.2 tokens (header names, parameter names), shared by the transport's screening
/// and the engines' rules so that both mean the same by "a token".
public enum HTTPToken {
    /// One `tchar`.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// A non-empty run of `tchar`.
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }
}
