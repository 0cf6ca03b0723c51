import Foundation
import GatehouseFormats
import GatehouseRules

/// What a definition must satisfy to be saved: each check answers the rule it breaks.
extension ManagedAPIDefinition {
    typealias Rule = ManagedAPIError.DefinitionRule

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
    func problem(storedSecret: Bool) -> Rule? {
        Self.nameProblem(name) ?? displayNameProblem ?? urlProblem(baseURL, field: "baseUrl") ?? metadataProblem ?? authProblem
            ?? modeProblem(hasSecret: auth.secret != nil || storedSecret)
    }

    static func nameProblem(_ name: String) -> Rule? {
        let bytes = Array(name.utf8)
        let allowed = { (b: UInt8) in (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x5F }
        guard (1...64).contains(bytes.count), bytes.allSatisfy(allowed), bytes[0] != 0x2D, bytes[0] != 0x5F else {
            return .name
        }
        return nil
    }

    private var displayNameProblem: Rule? {
        guard (1...200).contains(displayName.count), !Self.hasControl(displayName) else {
            return .displayName
        }
        return nil
    }

    private func urlProblem(_ url: URL, field: String) -> Rule? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return .url(field: field, .absoluteHTTP) }
        guard scheme == "https" || (scheme == "http" && development) else {
            return .url(field: field, .httpsOnly)
        }
        guard components.user == nil, components.password == nil else { return .url(field: field, .noUserInfo) }
        guard components.query == nil, components.fragment == nil else { return .url(field: field, .noQueryOrFragment) }
        let encoded = url.absoluteString.lowercased()
        if ["%00", "%09", "%0a", "%0d"].contains(where: encoded.contains) { return .url(field: field, .noControlCharacters) }
        return nil
    }

    private var metadataProblem: Rule? {
        guard metadata.count <= Self.maxMetadataPairs else { return .metadataPairs(limit: Self.maxMetadataPairs) }
        for (key, value) in metadata {
            if ManagedAPIRules.reservedMetadataKeys.contains(key) { return .metadataKeyReserved(key) }
            let keyBytes = Array(key.utf8)
            let allowed = { (b: UInt8) in b.isASCIIAlphanumeric || b == 0x2D || b == 0x5F || b == 0x2E }
            guard (1...64).contains(keyBytes.count), keyBytes.allSatisfy(allowed) else {
                return .metadataKey
            }
            guard value.utf8.count <= 1024, !Self.hasControl(value) else { return .metadataValue(key: key) }
        }
        return nil
    }

    private var authProblem: Rule? {
        if let secret = auth.secret, secret.isEmpty || secret.utf8.count > Self.maxSecretBytes || Self.hasControl(secret) {
            return .secret(maxBytes: Self.maxSecretBytes)
        }
        switch auth {
        case .none, .bearerToken: return nil
        case .basic(let username, _):
            guard !username.isEmpty, username.utf8.count <= 256, !username.contains(":"), !Self.hasControl(username) else {
                return .basicUsername
            }
            return nil
        case .apiKey(let placement, let name, _):
            let token = Array(name.utf8)
            guard (1...128).contains(token.count), token.allSatisfy(HTTPToken.isTokenByte) else {
                return .apiKeyName
            }
            if placement == .header, ["host", "content-length", "transfer-encoding", "connection", "cookie"].contains(name.lowercased()) {
                return .apiKeyHeader(name)
            }
            return nil
        case .oauth2(let settings):
            return oauthProblem(settings)
        }
    }

    private func oauthProblem(_ settings: OAuth2) -> Rule? {
        if let problem = urlProblem(settings.tokenEndpoint, field: "oauth2.tokenEndpoint") { return problem }
        guard !settings.clientID.isEmpty, settings.clientID.utf8.count <= 256, !Self.hasControl(settings.clientID) else {
            return .clientID
        }
        guard settings.scopes.count <= 50,
            settings.scopes.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 200 && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } })
        else { return .scopes }
        for (raw, value) in settings.authorizationParams {
            let key = raw.lowercased()
            if !HTTPToken.isToken(raw) { return .authorizationParamName }
            if Self.ownAuthorizationParams.contains(key) { return .authorizationParamSetByDevice(key) }
            if Self.secretAuthorizationParams.contains(key) {
                return .authorizationParamSecret(key)
            }
            if key.isEmpty || Self.hasControl(key) || Self.hasControl(value) { return .authorizationParamText }
        }
        switch settings.grant {
        case .authorizationCode:
            guard let endpoint = settings.authorizationEndpoint else { return .authorizationEndpointMissing }
            return urlProblem(endpoint, field: "oauth2.authorizationEndpoint")
        case .clientCredentials:
            return nil
        }
    }

    /// Whether the type and the mode can work together, and why not.
    private func modeProblem(hasSecret: Bool) -> Rule? {
        switch (mode, auth) {
        case (.direct, .basic):
            return .directShipsSecret(authType: "BASIC")
        case (.direct, .apiKey):
            return .directShipsSecret(authType: "API_KEY")
        case (.direct, .bearerToken) where hasSecret:
            return .directHoldsBearerToken
        case (.direct, .oauth2(let settings)):
            if settings.grant == .clientCredentials { return .directClientCredentials }
            if hasSecret { return .directClientSecret }
            return nil
        case (.proxied, .oauth2(let settings)):
            if settings.grant == .authorizationCode {
                return .proxiedAuthorizationCode
            }
            return hasSecret ? nil : .proxiedClientSecretMissing
        case (.proxied, .basic), (.proxied, .bearerToken), (.proxied, .apiKey):
            return hasSecret ? nil : .proxiedSecretMissing(authType: auth.type.rawValue)
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
