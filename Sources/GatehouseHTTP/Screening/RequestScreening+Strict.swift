import Foundation

/// RFC 9112's framing, as strict as a front proxy could be: what MHD accepts but a stricter
/// reader would refuse, or read otherwise, is refused here, before a handler or a body. Each
/// of these answers closes the connection (RFC 9112 §6.1, §11.2).
extension RequestScreening {
    /// Longest request target answered; longer is 414 (RFC 9112 §3 asks for 8000 at least).
    static let maxTargetBytes = 8192
    /// More header fields than this is 431.
    static let maxFields = 100

    static func strictHead(
        _ head: HeadFacts, headers: HTTPHeaders, version: String, limits: ServerConfiguration
    ) -> HTTPError? {
        switch head.layout {
        case .brokenRequestLine:
            return .invalidRequestLine("the request line must be method, one space, the target, one space, the version, with no NUL")
        case .brokenField:
            return .invalidHeader("a header field holds a NUL, or is folded onto the line before it (obs-fold)")
        case .strict:
            break
        }
        if let length = head.targetLength, length > maxTargetBytes {
            return HTTPError(status: 414, code: "uri_too_long", message: "the request target is longer than \(maxTargetBytes) bytes")
        }
        if head.bytes > limits.maxHeaderSize || head.fieldCount > maxFields {
            return HTTPError(
                status: 431, code: "header_too_large",
                message: "the request line and headers must fit in \(limits.maxHeaderSize) bytes and \(maxFields) fields")
        }
        // A space or a control character in the target: one reader stops at it, another does not.
        if head.targetHasRefusedByte {
            return .invalidRequestLine("the request target must not contain spaces or control characters")
        }
        let codings = headers.values("Transfer-Encoding")
        if !codings.isEmpty {
            // RFC 9112 §6.1: a sender must not send both, and a server must close after such a message.
            if headers["Content-Length"] != nil {
                return .invalidHeader("Content-Length and Transfer-Encoding cannot both frame the body")
            }
            // HTTP/1.0 has no transfer codings: its reader frames the body by the connection's end.
            if version == "HTTP/1.0" { return .invalidHeader("an HTTP/1.0 request cannot use Transfer-Encoding") }
            // Exactly `chunked`, as MHD compares it: it reads "chunked " as an unknown coding.
            if codings.count > 1 || codings[0].lowercased() != "chunked" {
                return .invalidHeader("the only transfer coding accepted is chunked")
            }
        }
        return nil
    }
}

extension HTTPError {
    /// A request line a strict reader would refuse (RFC 9112 §3).
    public static func invalidRequestLine(_ message: String) -> HTTPError { HTTPError(status: 400, code: "invalid_request", message: message) }
}
