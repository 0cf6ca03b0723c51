import Foundation
import GatehouseFormats

/// Joins a proxied call's relative path and query onto a definition's base URL, refusing
/// anything that could leave it: a scheme or `//host`, a backslash, percent-encoded slashes,
/// backslashes, dots or control bytes, and `..` segments that climb above the base path.
/// The host, scheme and port always come from the base URL.
public enum ProxyPath {
    /// `rawPath` is the path after `/proxy`, percent-encoding kept as sent (empty for the base itself).
    public static func join(base: URL, rawPath: String, query: [(name: String, value: String)]) throws -> URL {
        let relative = try segments(rawPath)
        let (origin, basePath) = try parts(of: base.absoluteString)
        var path = basePath
        while path.hasSuffix("/") { path.removeLast() }
        var text = String(origin)
        if relative.isEmpty {
            text += path.isEmpty ? "/" : path
        } else {
            text += path + "/" + relative.joined(separator: "/")
            if rawPath.hasSuffix("/") { text += "/" }
        }
        if !query.isEmpty { text += "?" + PercentEncoding.form(query.map { ($0.name, $0.value) }) }
        guard let url = URL(string: text), url.scheme == base.scheme, url.host == base.host, url.port == base.port else {
            throw ManagedAPIError.pathRefused(.leavesBase)
        }
        return url
    }

    /// A base URL's scheme and authority, and its path as written. A saved definition's base
    /// has no user info, query or fragment; one that does is not joined onto.
    static func parts(of base: String) throws -> (origin: Substring, path: Substring) {
        let bytes = base.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[colon...].starts(with: "://".utf8),
            !bytes.contains(UInt8(ascii: "?")), !bytes.contains(UInt8(ascii: "#"))
        else { throw ManagedAPIError.pathRefused(.baseUnusable) }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd = bytes[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { throw ManagedAPIError.pathRefused(.baseUnusable) }
        return (base[..<authorityEnd], base[authorityEnd...])
    }

    /// The path's segments with `.` and `..` resolved, each still percent-encoded.
    static func segments(_ rawPath: String) throws -> [String] {
        if rawPath.isEmpty { return [] }
        guard rawPath.hasPrefix("/"), !rawPath.hasPrefix("//") else {
            throw ManagedAPIError.pathRefused(.notRelative)
        }
        let bytes = Array(rawPath.utf8)
        for (index, byte) in bytes.enumerated() {
            // RFC 3986 pchar and `/` only: anything else (a space, a control byte, `\`, `{`, `|`,
            // `"`, `<`, `#`, `?`…) is refused here. This is what keeps a query or a fragment out
            // of the joined text: `URL(string:)` would take `?` and `#` as theirs.
            guard isPathByte(byte) else {
                throw ManagedAPIError.pathRefused(.notPathCharacters)
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let value = hexValue(bytes[index + 1], bytes[index + 2]) else {
                    throw ManagedAPIError.pathRefused(.malformedEscape)
                }
                // Encoded separators and dots change what the upstream sees as the path.
                if value == UInt8(ascii: "/") || value == UInt8(ascii: "\\") || value == UInt8(ascii: ".") || value < 0x20 || value == 0x7F {
                    throw ManagedAPIError.pathRefused(.encodedSeparator)
                }
            }
        }
        var kept: [String] = []
        let all = rawPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
        // An empty segment is never dropped, which would send another path than the device's
        // (`/echo//x` as `/echo/x`, `/http://evil.example/x` as `/http:/evil.example/x`): refused.
        // Only the trailing slash, which the joined URL keeps, ends in one.
        if all.dropLast().contains(where: \.isEmpty) {
            throw ManagedAPIError.pathRefused(.emptySegment)
        }
        for segment in all {
            // `..;x` is `..` to servers that drop path parameters (Tomcat, Spring).
            let decoded = segment.utf8.contains(UInt8(ascii: "%")) ? segment.removingPercentEncoding ?? String(segment) : String(segment)
            let head = decoded.utf8.contains(UInt8(ascii: ";"))
                ? decoded.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" : Substring(decoded)
            if head == "." || head == "..", decoded != head {
                throw ManagedAPIError.pathRefused(.hiddenDotSegment)
            }
            switch segment {
            case "", ".": continue
            case "..":
                guard !kept.isEmpty else { throw ManagedAPIError.pathRefused(.climbsAboveBase) }
                kept.removeLast()
            default: kept.append(String(segment))
            }
        }
        return kept
    }

    /// RFC 3986 `pchar` (unreserved, sub-delims, `:`, `@`, `%`) and the `/` between segments.
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "-._~!$&'()*+,;=:@%/".utf8.contains(byte)
        }
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        guard let h = nibble(high), let l = nibble(low) else { return nil }
        return h << 4 | l
    }
}
