import Foundation
import GatehouseFormats

/// One HTTP request as the router sees it: a value, complete with its body.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string.
    public var path: String
    /// The path exactly as sent, percent-encoding kept (what request signatures cover).
    public var rawPath: String
    /// Query arguments in order; a key without `=` has an empty value.
    public var query: [(name: String, value: String)]
    public var headers: HTTPHeaders
    public var body: Data
    /// The body as the edge read it, on a route that takes JSON (`JSONReader`'s one parse);
    /// nil for an empty body, a route that takes any bytes, or a request no server read.
    public var json: JSONValue?
    /// The parts of a `multipart/form-data` body, parsed while it arrived.
    public var multipart: MultipartForm?

    public init(
        method: HTTPMethod, path: String, rawPath: String? = nil, query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = [:], body: Data = Data(), multipart: MultipartForm? = nil
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers
        self.body = body
        self.multipart = multipart
    }

    /// Decodes `%XX` escapes; `plusIsSpace` for query strings (HTML form encoding).
    public static func percentDecoded(_ text: String, plusIsSpace: Bool = false) -> String {
        // Byte scans first: this runs on every request path, and Foundation's `contains`
        // on strings goes through NSString.
        let hasPlus = plusIsSpace && text.utf8.contains(UInt8(ascii: "+"))
        let source = hasPlus ? text.replacingOccurrences(of: "+", with: " ") : text
        guard source.utf8.contains(UInt8(ascii: "%")) else { return source }
        return source.removingPercentEncoding ?? source
    }

    /// The first value of a query argument.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The token of an `Authorization: Bearer <token>` header.
    public var bearerToken: String? { Self.bearerToken(headers) }

    /// The token of the `Authorization: Bearer <token>` header among `headers`.
    public static func bearerToken(_ headers: HTTPHeaders) -> String? {
        guard let value = headers["Authorization"] else { return nil }
        // Byte-wise: Foundation's case-insensitive compare and trimming go through NSString,
        // which cost a twentieth of an authenticated read.
        let bytes = Array(value.utf8)
        guard bytes.count > 7, bytes[6] == UInt8(ascii: " "),
            bytes[..<6].map({ $0 | 0x20 }) == Array("bearer".utf8)
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        // Indices, not a reversed view: decoding a reversed collection goes byte by byte.
        guard let start = bytes[7...].firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
        return String(decoding: bytes[start...last], as: UTF8.self)
    }
}
