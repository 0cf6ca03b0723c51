import Foundation
import GatehouseFormats

/// The checks every request passes at the edge, before routing reaches a handler, so that
/// no dialect and no database sees what no API accepts.
enum RequestScreening {
    /// The request line and headers: HTTP/1.1 needs exactly one `Host` (RFC 9112 §3.2); a
    /// control character in the path names nothing that exists (404), in the query it is
    /// refused (400). Checked on the decoded text, so `%00` counts (a raw one is refused
    /// earlier, in `strictHead`).
    static func head(_ request: Request, version: String) -> HTTPError? {
        // Names first: a name with a space glued on (" Host", "Host ") is not the Host it looks like.
        if let framing = framing(request.headers) { return framing }
        let hosts = request.headers.values("Host")
        // Every HTTP/1.x but 1.0 is read as 1.1 (RFC 9112 §2.3).
        if hosts.count > 1 || (hosts.isEmpty && version.hasPrefix("HTTP/1.") && version != "HTTP/1.0") {
            return HTTPError(status: 400, code: "invalid_host", message: "HTTP/1.1 requests carry exactly one Host header")
        }
        if hasControlCharacter(request.path) { return .notFound() }
        for (name, value) in request.query where hasControlCharacter(name) || hasControlCharacter(value) {
            return .invalidQuery
        }
        return nil
    }

    /// Header fields that could be read two ways, refused (RFC 9112 §5.1, §5.2, §6.3): a name
    /// that is not a token (whitespace before the colon), a line break or NUL in a value, two
    /// Content-Lengths. A server in front or behind that read one differently could be handed
    /// a second request inside the first. (Transfer codings and folded lines: `strictHead`.)
    static func framing(_ headers: HTTPHeaders) -> HTTPError? {
        var lengths = 0
        for (name, value) in headers {
            guard HTTPToken.isToken(name) else { return .invalidHeader("a header name is not an HTTP token") }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) { return .invalidHeader("a header value holds a line break") }
            if name.utf8.count == 14, name.lowercased() == "content-length" { lengths += 1 }
        }
        if lengths > 1 { return .invalidHeader("Content-Length is given more than once") }
        return nil
    }

    /// The media type a route of `kind` accepts; `nil` when it accepts this one.
    static func mediaType(_ contentType: String?, kind: RequestBodyKind) -> HTTPError? {
        guard kind == .json, let contentType else { return nil }
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingWhitespace.lowercased() } ?? ""
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json")) ? nil : .unsupportedMediaType
    }

    /// A complete body for a route of `kind`, read once: the tree of a JSON body (nil when the
    /// body is empty or the route takes any bytes), which handlers decode from, or the refusal.
    static func body(_ body: Data, kind: RequestBodyKind, maxDepth: Int) -> Result<JSONValue?, HTTPError> {
        guard kind == .json, !body.isEmpty else { return .success(nil) }
        do {
            return .success(try JSONReader.parse(body, maxDepth: maxDepth))
        } catch {
            return .failure(.refusedJSON(error, maxDepth: maxDepth))
        }
    }

    /// C0 controls (NUL among them), DEL and C1 controls.
    static func hasControlCharacter(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }
}

extension HTTPError {
    public static let unsupportedMediaType = HTTPError(
        status: 415, code: "unsupported_media_type", message: "the body must be JSON (Content-Type: application/json)")
    public static let invalidQuery = HTTPError(status: 400, code: "invalid_query", message: "query arguments must not contain control characters")

    /// A header field that could be read two ways (RFC 9112 §5).
    public static func invalidHeader(_ message: String) -> HTTPError { HTTPError(status: 400, code: "invalid_header", message: message) }

    /// A body `JSONReader` refused: malformed or too deep is `invalid_body`; a member named
    /// twice or a control character is a field's validation failure.
    public static func refusedJSON(_ error: JSONReadError, maxDepth: Int) -> HTTPError {
        switch error {
        case .malformed: return .badRequest("body is not valid JSON", code: "invalid_body")
        case .tooDeep: return .badRequest("body nests deeper than \(maxDepth) levels", code: "invalid_body")
        case .numberOutOfRange: return .badRequest("a number in the body is out of range", code: "invalid_body")
        case .duplicateName(let name):
            let shown = name.unicodeScalars.count <= 64 && !RequestScreening.hasControlCharacter(name) ? name : "(a field)"
            return .badRequest("\(shown) appears more than once", code: "duplicate_field")
        case .controlCharacter: return .badRequest("text must not contain control characters", code: "invalid_text")
        }
    }

    /// True for refusals of a field's content (as opposed to the body's syntax), which each
    /// dialect answers with its own validation error.
    public var isFieldValidation: Bool {
        code == "invalid_text" || code == "duplicate_field" || code == "invalid_query"
    }
}
