import Foundation
import GatehouseWire

extension OAuthSession {
    /// Consent for `key`, one at a time per key unless `login` (`.always` asked for its own sign-in).
    func consent(name: String, client: ManagedAPIWire.OAuth2Client, key: TokenKey, login: Bool) async throws -> StoredTokens {
        let work: @Sendable () async throws -> StoredTokens = { try await runConsent(name: name, client: client, key: key, login: login) }
        return login ? try await work() : try await consents.run(key.id, work)
    }

    /// Authorization code with PKCE S256 (RFC 7636, RFC 8252): present, check the callback, exchange, save.
    private func runConsent(name: String, client: ManagedAPIWire.OAuth2Client, key: TokenKey, login: Bool) async throws -> StoredTokens {
        let pkce = PKCE.make()
        let url = try authorizationURL(client, pkce, login: login)
        await pending.begin(pkce)
        let callback: URL
        do {
            callback = try await presenter.present(authorizationURL: url, redirectURI: redirectURI)
        } catch {
            await pending.discard(pkce.state)
            throw Self.presenterError(error)
        }
        let code: String
        let verifier: String
        do {
            (code, verifier) = try await check(callback, expected: pkce.state)
        } catch {
            await pending.discard(pkce.state)
            throw error
        }
        let tokens: StoredTokens
        do {
            tokens = try await endpoint.exchange(
                code: code, verifier: verifier, redirectURI: redirectURI, endpoint: client.tokenEndpoint, clientId: client.clientId)
        } catch TokenEndpoint.Failure.grantRejected(let error), TokenEndpoint.Failure.other(let error) {
            throw error
        }
        try await save(tokens, key)
        return tokens
    }

    /// The authorize URL (RFC 6749 §4.1.1 + RFC 7636 §4.3), the definition's extra parameters after the
    /// protocol's own, which they cannot replace; `.always` adds `prompt=login` (L7).
    func authorizationURL(_ client: ManagedAPIWire.OAuth2Client, _ pkce: PKCE, login: Bool) throws -> URL {
        guard var components = URLComponents(string: client.authorizationEndpoint),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http", components.host != nil
        else {
            throw ManagedAPIException.code(
                ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION, "the authorization endpoint \(client.authorizationEndpoint) is not an http(s) URL")
        }
        var fields: [(String, String)] = [
            ("response_type", "code"), ("client_id", client.clientId), ("redirect_uri", redirectURI.absoluteString),
        ]
        if !client.scopes.isEmpty { fields.append(("scope", client.scopes.joined(separator: " "))) }
        fields += [("state", pkce.state), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
        let reserved = Set(fields.map(\.0)).union(login ? ["prompt"] : [])
        for name in client.authorizationParams.keys.sorted() where !reserved.contains(name) {
            fields.append((name, client.authorizationParams[name]!))
        }
        if login { fields.append(("prompt", "login")) }
        let query = TokenEndpoint.form(fields)
        components.percentEncodedQuery = [components.percentEncodedQuery, query].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "&")
        guard let url = components.url else {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION, "the authorization URL cannot be built")
        }
        return url
    }

    /// The code and verifier of a callback that answers this attempt: it must come back to the redirect URI,
    /// carry no `error`, and name this attempt's `state` exactly, once.
    private func check(_ callback: URL, expected state: String) async throws -> (code: String, verifier: String) {
        guard Self.sameEndpoint(callback, redirectURI) else {
            throw Self.failed("the callback \(callback.absoluteString) is not the redirect URI")
        }
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        if let error = value("error") {
            let description = value("error_description").map { ": \($0)" } ?? ""
            throw Self.failed("the provider answered \(error)\(description)")
        }
        guard let returned = value("state"), returned == state, let verifier = await pending.take(returned) else {
            throw Self.failed("the callback's state does not match this sign-in (unknown, replayed or expired)")
        }
        guard let code = value("code"), !code.isEmpty else { throw Self.failed("the callback carries no code") }
        return (code, verifier)
    }

    private static func sameEndpoint(_ callback: URL, _ redirect: URL) -> Bool {
        callback.scheme?.lowercased() == redirect.scheme?.lowercased() && callback.host?.lowercased() == redirect.host?.lowercased()
            && callback.port == redirect.port && callback.path == redirect.path
    }

    private static func presenterError(_ error: any Error) -> ManagedAPIException {
        if let known = error as? ManagedAPIException { return known }
        if error is CancellationError { return .code(ManagedAPIErrorCodes.OAUTH_CANCELLED, "the consent was cancelled") }
        return failed("the consent screen failed: \(error)")
    }

    private static func failed(_ message: String) -> ManagedAPIException {
        .code(ManagedAPIErrorCodes.OAUTH_FAILED, message)
    }
}
