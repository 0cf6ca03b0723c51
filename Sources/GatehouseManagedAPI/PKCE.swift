import Foundation

/// One authorization attempt's secrets (RFC 7636, AppAuth): `state` and `verifier` are independent 32-byte
/// random values, so the state that travels through the browser says nothing about the verifier.
struct PKCE: Sendable, Equatable {
    let state: String
    let verifier: String

    /// `BASE64URL(SHA256(verifier))`, method S256.
    var challenge: String { Self.challenge(for: verifier) }

    static func make() -> PKCE {
        PKCE(state: randomToken(), verifier: randomToken())
    }

    static func challenge(for verifier: String) -> String {
        base64URL(Digest.sha256(Array(verifier.utf8)))
    }

    /// 32 random bytes as unpadded base64url: 43 characters from the RFC 7636 alphabet.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
