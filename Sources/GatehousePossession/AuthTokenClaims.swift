import Foundation

/// What the SDK reads from the authToken's payload without verifying it (only Gatehouse holds the key):
/// where Gatehouse is (`iss`) and whether the flow belongs to a sandbox (`env`).
struct AuthTokenClaims: Decodable, Sendable {
    /// The Gatehouse base URL the device calls.
    var iss: String?
    /// `sandbox` or `production`.
    var env: String?

    /// The claims of a three-part JWT whose payload is a JSON object; anything else is `.authTokenInvalid`.
    init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }), let payload = Self.base64URLDecoded(parts[1]) else {
            throw PossessionAuthError.authTokenInvalid
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: payload)
        } catch {
            throw PossessionAuthError.authTokenInvalid
        }
    }

    var isSandbox: Bool { env == "sandbox" }

    /// `iss` when it is an absolute http(s) URL with a host.
    var gatehouse: URL? {
        guard let iss, let url = URL(string: iss), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// RFC 4648 §5 without padding (padding tolerated); `nil` for any other character.
    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = String(text)
        while base64.hasSuffix("=") { base64.removeLast() }
        guard base64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
