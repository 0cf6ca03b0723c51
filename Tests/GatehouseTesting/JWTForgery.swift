import Foundation
import GatehouseCrypto
import GatehouseFormats

/// Forgeries of a compact JWS, for the tests that must see them refused: parts swapped for
/// new JSON, or an HS256 signature keyed with what should only verify (a public key's PEM).
public enum JWTForgery {
    /// `token` with its header, payload or signature replaced (the JSON written with sorted keys).
    public static func replacing(_ token: String, header: [String: Any]? = nil, payload: [String: Any]? = nil, signature: String? = nil) throws -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw TestSetupError("not a compact JWS") }
        if let header { parts[0] = Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) }
        if let payload { parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)) }
        if let signature { parts[2] = signature }
        return parts.joined(separator: ".")
    }

    /// The token's header or payload as JSON (`part` 0 or 1).
    public static func json(_ token: String, part: Int) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[part]),
              let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { throw TestSetupError("not a compact JWS with JSON parts") }
        return object
    }

    /// `token` re-signed as HS256 with `key` as the HMAC secret (the public-key confusion attack).
    public static func hs256(_ token: String, keyedWith key: String) throws -> String {
        var header = try json(token, part: 0)
        header["alg"] = "HS256"
        let input = try replacing(token, header: header).split(separator: ".").prefix(2).joined(separator: ".")
        return input + "." + Base64URL.encode(HMAC.sha256(key: Array(key.utf8), message: Array(input.utf8)))
    }
}
