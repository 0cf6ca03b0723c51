import Foundation

/// Percent-encoding of everything but RFC 3986 unreserved characters: safe in a path
/// segment, a query and an `application/x-www-form-urlencoded` body alike (a `+` stays a
/// `+` as `%2B`, never a space). Shared by the server, the engines and the SDK.
public enum PercentEncoding {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything but unreserved characters escaped.
    public static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `name=value&…`, each half escaped.
    public static func form(_ fields: [(String, String)]) -> String {
        fields.map { escaped($0.0) + "=" + escaped($0.1) }.joined(separator: "&")
    }
}
