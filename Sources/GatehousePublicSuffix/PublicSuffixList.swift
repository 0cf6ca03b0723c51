import CPSL

/// The Public Suffix List as libpsl reads it (Debian's `publicsuffix` data, or libpsl's own
/// copy when that is newer): which host names belong to someone, and which are suffixes under
/// which anyone may register a name (`com`, `co.uk`, `github.io`).
public enum PublicSuffixList {
    /// Loaded once; libpsl's lookups only read it, so every thread may share it.
    nonisolated(unsafe) private static let context: OpaquePointer? = psl_latest(nil) ?? psl_builtin()

    /// True when `host` (lowercase, ASCII or punycode) is a registrable domain or a name under
    /// one (`example.com`, `login.example.co.uk`); false for a public suffix alone (`com`,
    /// `co.uk`, `github.io`), for an IPv4 address (no suffix is all digits) and when the list
    /// could not be read.
    public static func isUnderRegistrableDomain(_ host: String) -> Bool {
        guard let context, let last = host.split(separator: ".").last, !last.allSatisfy(\.isASCIIDigit) else { return false }
        return host.withCString { psl_registrable_domain(context, $0) } != nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
