import Foundation
import GatehouseCore

/// Reads an `application/x-www-form-urlencoded` body (WHATWG URL §5.1): `&`-separated
/// `name=value` pairs, `+` as a space, percent-escapes decoded as UTF-8. Status callbacks
/// arrive in this form, and their signatures cover the decoded values.
enum FormBody {
    /// The pairs in order (repeated names kept); nil when a name or value is not valid
    /// percent-encoded UTF-8.
    static func parse(_ body: Data) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for piece in String(decoding: body, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: true) {
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(halves[0]), let value = decode(halves.count > 1 ? halves[1] : "") else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The first value of `name`.
    static func value(_ name: String, in pairs: [(name: String, value: String)]) -> String? {
        pairs.first { $0.name == name }?.value
    }
}
