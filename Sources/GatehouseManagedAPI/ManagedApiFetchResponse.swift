import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Safe: every stored property is an immutable `let`; the one that is not Sendable, `body` (`Any?`), is set in `init` to a
// String or to what `JSONSerialization.jsonObject` parsed without mutable containers, and never changed.
/// The upstream API's answer, whatever its status: inspect `ok` and `status`.
public struct ManagedApiFetchResponse: @unchecked Sendable {
    /// The HTTP status code.
    public let status: Int
    /// The response headers (names as the transport reported them).
    public let headers: [String: String]
    /// Parsed JSON when the body is labelled JSON (`application/json`, `+json`) and parses, otherwise the text; nil when empty.
    public let body: Any?
    /// The body as UTF-8 text (invalid bytes replaced); nil when empty.
    public let rawBody: String?
    /// The body's bytes as they came, for binary answers.
    public let data: Data
    /// True for a 2xx status.
    public var ok: Bool { (200...299).contains(status) }

    /// A response from its parts, the body interpreted by its `Content-Type` as `fetch` does.
    public init(status: Int, headers: [String: String], data: Data) {
        self.status = status
        self.headers = headers
        self.data = data
        guard !data.isEmpty else {
            body = nil
            rawBody = nil
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        rawBody = text
        if Self.isJSON(Self.header("Content-Type", in: headers)),
            let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        {
            body = parsed
        } else {
            body = text
        }
    }

    /// The value of header `name`, compared without case.
    public func header(_ name: String) -> String? { Self.header(name, in: headers) }

    init(_ data: Data, _ response: HTTPURLResponse) {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        self.init(status: response.statusCode, headers: headers, data: data)
    }

    /// `application/json`, or any `+json` suffix type (`application/problem+json`), parameters ignored.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let type = media.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || type.hasSuffix("+json")
    }

    private static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
