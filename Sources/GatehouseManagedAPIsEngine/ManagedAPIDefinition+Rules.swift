import Foundation
import GatehouseFormats
import GatehouseRules

/// What a definition must satisfy to be saved: each rule answers the sentence that says why not.
extension ManagedAPIDefinition {
    static let maxMetadataPairs = 50
    static let maxSecretBytes = 4096
    /// Authorization parameters the device sets itself; a definition may not override them.
    static let ownAuthorizationParams: Set<String> = [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope",
    ]
    /// Parameters that hold a secret: in the authorization request they would reach every device.
    static let secretAuthorizationParams: Set<String> = ["client_secret", "code_verifier", "client_assertion", "password", "refresh_token"]

    /// Why this definition cannot be saved, or nil. `storedSecret` tells whether a secret is
    /// already kept for it (a save that leaves the secret out keeps that one).
    func problem(storedSecret: Bool) -> String? {
        Self.nameProblem(name) ?? displayNameProblem ?? urlProblem(baseURL, field: "baseUrl") ?? metadataProblem ?? authProblem
            ?? modeProblem(hasSecret: auth.secret != nil || storedSecret)
    }

    static func nameProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        let allowed = { (b: UInt8) in (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x5F }
        guard (1...64).contains(bytes.count), bytes.allSatisfy(allowed), bytes[0] != 0x2D, bytes[0] != 0x5F else {
            return "name must be 1 to 64 characters of a-z, 0-9, - and _, starting with a letter or digit"
        }
        return nil
    }

    private var displayNameProblem: String? {
        guard (1...200).contains(displayName.count), !Self.hasControl(displayName) else {
            return "displayName must be 1 to 200 characters without control characters"
        }
        return nil
    }

    private func urlProblem(_ url: URL, field: String) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "\(field) must be an absolute http(s) URL" }
        guard scheme == "https" || (scheme == "http" && development) else {
            return "\(field) must use https (http only for a development definition)"
        }
        guard components.user == nil, components.password == nil else { return "\(field) must not carry a user or password" }
        guard components.query == nil, components.fragment == nil else { return "\(field) must not have a query or fragment" }
        let encoded = url.absoluteString.lowercased()
        if ["%00", "%09", "%0a", "%0d"].contains(where: encoded.contains) { return "\(field) must not hold control characters" }
        return nil
    }

    private var metadataProblem: String? {
        guard metadata.count <= Self.maxMetadataPairs else { return "metadata holds at most \(Self.maxMetadataPairs) pairs" }
        for (key, value) in metadata {
            if ManagedAPIRules.reservedMetadataKeys.contains(key) { return "metadata key \(key) is one of the definition's own fields" }
            let keyBytes = Array(key.utf8)
            let allowed = { (b: UInt8) in b.isASCIIAlphanumeric || b == 0x2D || b == 0x5F || b == 0x2E }
            guard (1...64).contains(keyBytes.count), keyBytes.allSatisfy(allowed) else {
                return "metadata keys are 1 to 64 characters of letters, digits, -, _ and ."
            }
            guard value.utf8.count <= 1024, !Self.hasControl(value) else { return "metadata \(key) must be at most 1024 bytes without control characters" }
        }
        return nil
    }

    private var authProblem: String? {
        if let secret = auth.secret, secret.isEmpty || secret.utf8.count > Self.maxSecretBytes || Self.hasControl(secret) {
            return "a secret must be 1 to \(Self.maxSecretBytes) bytes without control characters"
        }
        switch auth {
        case .none, .bearerToken: return nil
        case .basic(let username, _):
            guard !username.isEmpty, username.utf8.count <= 256, !username.contains(":"), !Self.hasControl(username) else {
                return "basic.username must be 1 to 256 characters without a colon or control characters"
            }
            return nil
        case .apiKey(let placement, let name, _):
            let token = Array(name.utf8)
            guard (1...128).contains(token.count), token.allSatisfy(HTTPToken.isTokenByte) else {
                return "apiKey.name must be 1 to 128 characters of an HTTP token"
            }
            if placement == .header, ["host", "content-length", "transfer-encoding", "connection", "cookie"].contains(name.lowercased()) {
                return "apiKey.name cannot be the \(name) header"
            }
            return nil
        case .oauth2(let settings):
            return oauthProblem(settings)
        }
    }

    private func oauthProblem(_ settings: OAuth2) -> String? {
        if let problem = urlProblem(settings.tokenEndpoint, field: "oauth2.tokenEndpoint") { return problem }
        guard !settings.clientID.isEmpty, settings.clientID.utf8.count <= 256, !Self.hasControl(settings.clientID) else {
            return "oauth2.clientId must be 1 to 256 characters without control characters"
        }
        guard settings.scopes.count <= 50,
            settings.scopes.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 200 && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } })
        else { return "oauth2.scopes are at most 50 scope tokens (RFC 6749 §3.3)" }
        for (raw, value) in settings.authorizationParams {
            let key = raw.lowercased()
            if !HTTPToken.isToken(raw) { return "oauth2.authorizationParams names are plain tokens (no spaces)" }
            if Self.ownAuthorizationParams.contains(key) { return "oauth2.authorizationParams cannot set \(key): the device sets it" }
            if Self.secretAuthorizationParams.contains(key) {
                return "oauth2.authorizationParams cannot hold \(key): every device reads the authorization parameters"
            }
            if key.isEmpty || Self.hasControl(key) || Self.hasControl(value) { return "oauth2.authorizationParams must be plain text" }
        }
        switch settings.grant {
        case .authorizationCode:
            guard let endpoint = settings.authorizationEndpoint else { return "oauth2.authorizationEndpoint is required for the authorization_code grant" }
            return urlProblem(endpoint, field: "oauth2.authorizationEndpoint")
        case .clientCredentials:
            return nil
        }
    }

    /// Whether the type and the mode can work together, and why not.
    private func modeProblem(hasSecret: Bool) -> String? {
        switch (mode, auth) {
        case (.direct, .basic):
            return "a direct BASIC definition would ship its password to every device; use mode proxied"
        case (.direct, .apiKey):
            return "a direct API_KEY definition would ship its key to every device; use mode proxied"
        case (.direct, .bearerToken) where hasSecret:
            return "a direct BEARER_TOKEN definition cannot hold a token, which every device would receive; leave it out (the app sets it on the device) or use mode proxied"
        case (.direct, .oauth2(let settings)):
            if settings.grant == .clientCredentials { return "the client_credentials grant needs a client secret, which cannot ship to devices; use mode proxied" }
            if hasSecret { return "a direct OAuth 2.0 client is a public client (RFC 8252 §8.5): a client secret would ship to every device; leave it out" }
            return nil
        case (.proxied, .oauth2(let settings)):
            if settings.grant == .authorizationCode {
                return "the authorization_code grant asks for consent in the device's browser and keeps the user's tokens there; use mode direct"
            }
            return hasSecret ? nil : "the client_credentials grant needs oauth2.clientSecret"
        case (.proxied, .basic), (.proxied, .bearerToken), (.proxied, .apiKey):
            return hasSecret ? nil : "a proxied \(auth.type.rawValue) definition needs its secret"
        default:
            return nil
        }
    }

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

}

extension UInt8 {
    var isASCIIAlphanumeric: Bool { (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
