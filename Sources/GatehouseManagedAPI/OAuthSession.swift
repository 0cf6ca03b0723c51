import Foundation
import GatehouseWire

/// The device side of a `direct` OAuth 2.0 API: cached token, else one refresh at a time, else consent,
/// as the prompt allows (notes §6; AppAuth's `OIDAuthState` without its single-instance limit).
struct OAuthSession: Sendable {
    let store: any ManagedAPITokenStore
    let endpoint: TokenEndpoint
    let presenter: any ConsentPresenter
    let redirectURI: URL
    let now: @Sendable () -> Date
    /// A token is treated as expired this many seconds early (clock skew, time in flight).
    let leeway: TimeInterval
    let refreshes = SingleFlight<StoredTokens>(cancelsWithLastWaiter: false)
    let consents = SingleFlight<StoredTokens>(cancelsWithLastWaiter: true)
    let pending: PendingAuthorizations

    /// A token to send and whether consent produced it during this call.
    struct Acquired: Sendable {
        let token: String
        let viaConsent: Bool
    }

    /// Consent would be needed but is not allowed here (the retry after a fresh consent); the caller returns its 401.
    struct ConsentNotAllowed: Error {}

    /// The refresh is impossible (no refresh token, grant rejected, tokens gone): the prompt policy decides.
    struct NeedsConsent: Error {}

    /// A token for `name`'s client under `prompt`. `rejected` is the token the API just answered 401 to,
    /// which forces a refresh whatever the clock says.
    func token(
        name: String, client: ManagedAPIWire.OAuth2Client, prompt: AuthPrompt, rejected: String? = nil, consentAllowed: Bool = true
    ) async throws -> Acquired {
        let key = TokenKey.oauth2(name, client)
        if prompt == .always, rejected == nil {
            // L7: a cached token or a browser cookie must not stand in for the fresh sign-in asked for.
            try await remove(key)
            return Acquired(token: try await consent(name: name, client: client, key: key, login: true).accessToken, viaConsent: true)
        }
        if let stored = try await read(key) {
            if stored.accessToken != rejected, stored.isFresh(at: now(), leeway: leeway) { return Acquired(token: stored.accessToken, viaConsent: false) }
            do {
                return Acquired(token: try await refresh(key: key, client: client, seen: stored.accessToken).accessToken, viaConsent: false)
            } catch is NeedsConsent {
                // Falls through to the prompt policy below.
            }
        }
        guard prompt != .never else {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE, "\(name) needs the user's consent")
        }
        guard consentAllowed else { throw ConsentNotAllowed() }
        return Acquired(token: try await consent(name: name, client: client, key: key, login: false).accessToken, viaConsent: true)
    }

    /// One refresh per key at a time; `seen` is the access token the caller found unusable.
    func refresh(key: TokenKey, client: ManagedAPIWire.OAuth2Client, seen: String) async throws -> StoredTokens {
        try await refreshes.run(key.id) {
            // Re-read after joining the line: a refresh that just finished (here or in a sibling process) may have done the work.
            guard let latest = try await read(key) else { throw NeedsConsent() }
            if latest.accessToken != seen, latest.isFresh(at: now(), leeway: leeway) { return latest }
            guard let refreshToken = latest.refreshToken else { throw NeedsConsent() }
            let fresh: StoredTokens
            do {
                fresh = try await endpoint.refresh(latest, refreshToken: refreshToken, endpoint: client.tokenEndpoint, clientId: client.clientId)
            } catch TokenEndpoint.Failure.grantRejected {
                // L1: a sibling sharing the store may have rotated meanwhile; its tokens are alive.
                if let again = try await read(key), again.refreshToken != refreshToken { return again }
                try await remove(key)
                throw NeedsConsent()
            } catch TokenEndpoint.Failure.other(let error) {
                // L5: a 5xx or a timeout keeps the tokens; the call fails, the user stays signed in.
                throw error
            }
            // L2: saved before any waiter sees the new access token, so a rotated refresh token is never lost.
            try await save(fresh, key)
            return fresh
        }
    }

    func read(_ key: TokenKey) async throws -> StoredTokens? {
        do { return try await store.tokens(for: key) } catch { throw ManagedAPIException.store(error) }
    }

    func remove(_ key: TokenKey) async throws {
        do { try await store.removeTokens(for: key) } catch { throw ManagedAPIException.store(error) }
    }

    /// Tries twice: the provider has already rotated, so losing this write costs the grant.
    func save(_ tokens: StoredTokens, _ key: TokenKey) async throws {
        do {
            try await store.setTokens(tokens, for: key)
        } catch {
            do { try await store.setTokens(tokens, for: key) } catch { throw ManagedAPIException.store(error) }
        }
    }
}
