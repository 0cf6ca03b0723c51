import GatehouseManagedAPIsEngine

/// How a managed APIs refusal reads in the dialects' messages.
extension ManagedAPIError {
    var text: String {
        switch reason {
        case .noSuchAPI(let name): "No managed API \(name)."
        case .definition(let rule): rule.text
        case .secretKeyMissing(let saving): "this server has no managed-api-secret-key" + (saving ? ", so it cannot keep a secret" : "")
        case .direct(let name): "\(name) is a direct managed API: devices call it themselves"
        case .path(let rule): rule.text
        case .destination(let refusal): refusal.text
        case .credential(let failure): failure.text
        }
    }
}

extension ManagedAPIError.DefinitionRule {
    var text: String {
        switch self {
        case .name: "name must be 1 to 64 characters of a-z, 0-9, - and _, starting with a letter or digit"
        case .displayName: "displayName must be 1 to 200 characters without control characters"
        case .url(let field, .absoluteHTTP): "\(field) must be an absolute http(s) URL"
        case .url(let field, .httpsOnly): "\(field) must use https (http only for a development definition)"
        case .url(let field, .noUserInfo): "\(field) must not carry a user or password"
        case .url(let field, .noQueryOrFragment): "\(field) must not have a query or fragment"
        case .url(let field, .noControlCharacters): "\(field) must not hold control characters"
        case .metadataPairs(let limit): "metadata holds at most \(limit) pairs"
        case .metadataKeyReserved(let key): "metadata key \(key) is one of the definition's own fields"
        case .metadataKey: "metadata keys are 1 to 64 characters of letters, digits, -, _ and ."
        case .metadataValue(let key): "metadata \(key) must be at most 1024 bytes without control characters"
        case .secret(let maxBytes): "a secret must be 1 to \(maxBytes) bytes without control characters"
        case .basicUsername: "basic.username must be 1 to 256 characters without a colon or control characters"
        case .apiKeyName: "apiKey.name must be 1 to 128 characters of an HTTP token"
        case .apiKeyHeader(let name): "apiKey.name cannot be the \(name) header"
        case .clientID: "oauth2.clientId must be 1 to 256 characters without control characters"
        case .scopes: "oauth2.scopes are at most 50 scope tokens (RFC 6749 §3.3)"
        case .authorizationParamName: "oauth2.authorizationParams names are plain tokens (no spaces)"
        case .authorizationParamSetByDevice(let key): "oauth2.authorizationParams cannot set \(key): the device sets it"
        case .authorizationParamSecret(let key): "oauth2.authorizationParams cannot hold \(key): every device reads the authorization parameters"
        case .authorizationParamText: "oauth2.authorizationParams must be plain text"
        case .authorizationEndpointMissing: "oauth2.authorizationEndpoint is required for the authorization_code grant"
        case .directShipsSecret(let type):
            "a direct \(type) definition would ship its \(type == "BASIC" ? "password" : "key") to every device; use mode proxied"
        case .directHoldsBearerToken:
            "a direct BEARER_TOKEN definition cannot hold a token, which every device would receive; leave it out (the app sets it on the device) or use mode proxied"
        case .directClientCredentials: "the client_credentials grant needs a client secret, which cannot ship to devices; use mode proxied"
        case .directClientSecret:
            "a direct OAuth 2.0 client is a public client (RFC 8252 §8.5): a client secret would ship to every device; leave it out"
        case .proxiedAuthorizationCode:
            "the authorization_code grant asks for consent in the device's browser and keeps the user's tokens there; use mode direct"
        case .proxiedClientSecretMissing: "the client_credentials grant needs oauth2.clientSecret"
        case .proxiedSecretMissing(let type): "a proxied \(type) definition needs its secret"
        }
    }
}

extension ManagedAPIError.PathRule {
    var text: String {
        switch self {
        case .baseUnusable: "the definition's baseUrl is unusable"
        case .leavesBase: "the path would leave the API's base URL"
        case .notRelative: "relativeUrl must be a path starting with a single /, not an absolute URL"
        case .notPathCharacters: "relativeUrl may hold only URL path characters (RFC 3986), percent-encoded otherwise"
        case .malformedEscape: "relativeUrl has a malformed percent escape"
        case .encodedSeparator: "relativeUrl may not percent-encode a slash, backslash, dot or control character"
        case .emptySegment: "relativeUrl may not hold an empty segment (//)"
        case .hiddenDotSegment: "relativeUrl may not hide a dot segment behind ;"
        case .climbsAboveBase: "relativeUrl climbs above the API's base path"
        }
    }
}

extension ManagedAPIError.DestinationRefusal {
    var text: String {
        switch self {
        case .notHTTPWithHost: "only http and https URLs with a host are allowed"
        case .notPublic(let host): "\(host) is not a public address"
        case .doesNotResolve(let host): "\(host) does not resolve"
        case .resolvesToPrivate(let host): "\(host) resolves to an address that is not public"
        case .unvetted(let name): "\(name) may not be reached: its address could not be checked"
        }
    }
}

extension ManagedAPIError.CredentialFailure {
    var text: String {
        switch self {
        case .tokenRequestUnfinished(let name): "another node's token request for \(name) did not finish"
        case .storedOAuthIncomplete: "the stored OAuth 2.0 settings are incomplete"
        case .storedDefinitionUnreadable: "a stored definition is unreadable"
        case .tokenEndpointUnreachable(let name): "the token endpoint of \(name) could not be reached"
        case .tokenEndpointRefused(let name, let error): "the token endpoint of \(name) refused the client: \(error)"
        case .tokenEndpointAnswered(let name, let status): "the token endpoint of \(name) answered HTTP \(status) without a usable access_token"
        case .secretDoesNotOpen(let name): "the secret of \(name) does not open with this server's key; save it again"
        }
    }
}
