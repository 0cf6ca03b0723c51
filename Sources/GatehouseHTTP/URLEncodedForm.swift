import Foundation

/// An `application/x-www-form-urlencoded` body (an HTML form, an OAuth token request), read
/// in one pass: names and values percent-decoded with `+` as space, a name sent twice refused
/// (two values for one field are read differently by different readers).
///
/// ```swift
/// let form = try URLEncodedForm(request)
/// let email = form["email"] ?? ""
/// ```
public struct URLEncodedForm: Sendable, Equatable {
    public enum Problem: Error, Equatable, Sendable {
        /// The body is not declared as a form.
        case notAForm
        case notUTF8
        /// The same field twice.
        case repeated(String)
    }

    public let fields: [String: String]

    public init(fields: [String: String]) { self.fields = fields }

    /// Reads the request's body, which must be declared as a form.
    public init(_ request: Request) throws(Problem) {
        let type = request.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else { throw .notAForm }
        try self.init(body: request.body)
    }

    /// Reads a form's bytes.
    public init(body: Data) throws(Problem) {
        guard let text = String(data: body, encoding: .utf8) else { throw .notUTF8 }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Request.percentDecoded(String(parts[0]), plusIsSpace: true)
            guard fields[name] == nil else { throw .repeated(name) }
            fields[name] = parts.count > 1 ? Request.percentDecoded(String(parts[1]), plusIsSpace: true) : ""
        }
        self.fields = fields
    }

    public subscript(name: String) -> String? { fields[name] }
}
