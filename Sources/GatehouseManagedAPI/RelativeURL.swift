import Foundation

/// Joins a Managed API's base URL and a caller's relative URL, so that no relative URL can reach
/// another origin or climb out of the base path (seed 002: "Absolute URLs are rejected").
enum RelativeURL {
    /// `base` + `relative`, or `INVALID_URL`. The fragment is dropped (never sent); the query is kept as given.
    static func join(_ base: URL, _ relative: String) throws -> URL {
        try check(relative)
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = base.host, !host.isEmpty,
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        else { throw invalid("the base URL \(base.absoluteString) is not an absolute http(s) URL") }

        var reference = relative
        if let hash = reference.firstIndex(of: "#") { reference = String(reference[..<hash]) }
        var query: String?
        if let mark = reference.firstIndex(of: "?") {
            query = String(reference[reference.index(after: mark)...])
            reference = String(reference[..<mark])
        }
        if !reference.isEmpty, !reference.hasPrefix("/") { reference = "/" + reference }

        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let path = removeDotSegments(basePath + encode(reference, allowed: .urlPathAllowed))
        // The boundary rule: `/v1` does not cover `/v10`, and `..` resolved above cannot leave it.
        guard path == basePath || path.hasPrefix(basePath + "/") || (basePath.isEmpty && (path.isEmpty || path.hasPrefix("/"))) else {
            throw invalid("\(relative) leaves the base path \(basePath.isEmpty ? "/" : basePath)")
        }
        components.percentEncodedPath = path
        components.percentEncodedQuery = query.map { encode($0, allowed: .urlQueryAllowed) } ?? components.percentEncodedQuery
        components.fragment = nil
        guard let url = components.url, url.scheme?.lowercased() == scheme, url.host == host, url.port == base.port else {
            throw invalid("\(relative) does not stay on \(scheme)://\(host)")
        }
        return url
    }

    /// Refuses, before anything is sent, what could name another origin: a scheme, `//`, a backslash
    /// (browsers and some servers read it as `/`), and control characters (request-line injection); a space is percent-encoded.
    static func check(_ relative: String) throws {
        if relative.hasPrefix("//") { throw invalid("\(relative) is protocol-relative") }
        if relative.contains("\\") { throw invalid("\(relative) contains a backslash") }
        if relative.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw invalid("the relative URL contains a control character")
        }
        // `..` that climbs above the relative URL's own root would leave any base path: refused here,
        // without the base, so not even a definitions sync goes out for it.
        let path = relative.prefix { $0 != "?" && $0 != "#" }
        let rooted = removeDotSegments("/r/" + path.drop { $0 == "/" })
        if rooted != "/r", !rooted.hasPrefix("/r/") { throw invalid("\(relative) climbs out of the base path") }
        // A scheme is letters, digits, `+ - .` before the first `:`, with no `/ ? #` before it.
        if let colon = relative.firstIndex(of: ":") {
            let head = relative[..<colon]
            if let first = head.first, first.isASCII, first.isLetter,
                head.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                throw invalid("\(relative) is an absolute URL")
            }
        }
    }

    /// RFC 3986 §5.2.4, with `%2e` read as `.` so an encoded `..` is resolved here rather than by the server.
    static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let decoded = segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
            let isLast = index == segments.count - 1
            switch decoded {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }

    /// Percent-encodes what may not stand in a URL part, keeping escapes the caller already wrote
    /// (a `%` not followed by two hex digits is itself encoded).
    static func encode(_ text: String, allowed: CharacterSet) -> String {
        let bytes = Array(text.utf8)
        var output = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                output += "%"
            } else if byte < 0x80, allowed.contains(Unicode.Scalar(byte)), byte != UInt8(ascii: "%") {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
            index += 1
        }
        return output
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func invalid(_ message: String) -> ManagedAPIException {
        .code(ManagedAPIErrorCodes.INVALID_URL, message)
    }
}
