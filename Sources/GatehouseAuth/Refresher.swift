import Foundation
import GatehouseWire
import GatehouseClientCore

/// One refresh, done under the store's cross-process lock: re-read, call the server, persist.
///
/// Runs outside the `SessionManager` actor so the actor stays free while the network call is out.
struct Refresher: Sendable {
    let http: HTTPClient
    let store: any TokenStore
    let now: @Sendable () -> Date

    /// Exchanges `seen` (the refresh token the caller read) for a new pair, unless the store already moved on.
    func refresh(seen: String) async throws -> TokenPair {
        try await store.withLock {
            // Another process may have rotated while this one waited for the lock: use its pair, spend nothing.
            guard let stored = try store.read() else { throw AuthError.signedOut(code: nil) }
            if stored.refreshToken != seen { return stored }

            let fresh: TokenPair
            do {
                let request = try AuthHTTP.request(DatacoveWire.Endpoints.refresh, body: DatacoveWire.RefreshRequest(refreshToken: seen))
                fresh = try await http.send(request, as: DatacoveWire.TokenPair.self).received(at: now())
            } catch let error as AuthError where Self.endsSession(error) {
                // Compare before deleting: a newer pair written meanwhile belongs to a session that is still alive.
                if let latest = try store.read(), latest.refreshToken != seen { return latest }
                try store.clear()
                throw AuthError.signedOut(code: error.code)
            }
            // A sign-out or a new sign-in during the call wins over this late answer.
            guard let latest = try store.read() else { throw AuthError.signedOut(code: nil) }
            if latest.refreshToken != seen { return latest }
            try persist(fresh)
            return fresh
        }
    }

    /// Only a 401 with one of the closed list of codes; network errors, 5xx and unknown codes keep the tokens.
    static func endsSession(_ error: AuthError) -> Bool {
        guard error.status == 401, let code = error.code else { return false }
        return AuthErrorCode.signOutCodes.contains(code)
    }

    /// The server has already rotated, so losing this write costs the session: try twice before giving up.
    private func persist(_ pair: TokenPair) throws {
        do {
            try store.write(pair)
        } catch {
            try store.write(pair)
        }
    }
}

/// The body of `POST auth/v1/refresh`.
