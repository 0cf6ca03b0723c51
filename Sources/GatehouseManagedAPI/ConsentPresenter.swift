import Foundation

/// Shows an OAuth 2.0 authorization page to the user and returns where the provider redirected.
///
/// Implementations: `WebAuthenticationConsentPresenter` (iOS, macOS), `LoopbackConsentPresenter`
/// (Linux and command-line tools, RFC 8252 §7.3), `ClosureConsentPresenter` (tests, custom UIs).
public protocol ConsentPresenter: Sendable {
    /// Presents `authorizationURL` and returns the full callback URL (starting with `redirectURI`);
    /// throws `OAUTH_CANCELLED` when the user closes it.
    func present(authorizationURL: URL, redirectURI: URL) async throws -> URL
}

/// A presenter that hands the authorization URL to a closure: for tests and for apps with their own UI.
public struct ClosureConsentPresenter: ConsentPresenter {
    /// Receives the authorization URL and the redirect URI; returns the callback URL.
    public let handler: @Sendable (_ authorizationURL: URL, _ redirectURI: URL) async throws -> URL

    /// A presenter calling `handler` for each consent.
    public init(_ handler: @escaping @Sendable (_ authorizationURL: URL, _ redirectURI: URL) async throws -> URL) {
        self.handler = handler
    }

    /// Calls the handler.
    public func present(authorizationURL: URL, redirectURI: URL) async throws -> URL {
        try await handler(authorizationURL, redirectURI)
    }
}

/// A presenter for apps that never show consent on the device: every consent fails with `INTERACTION_REQUIRED`.
public struct NoConsentPresenter: ConsentPresenter {
    /// A presenter that refuses.
    public init() {}

    /// Throws `INTERACTION_REQUIRED`.
    public func present(authorizationURL: URL, redirectURI: URL) async throws -> URL {
        throw ManagedAPIException.code(ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE, "this app shows no consent screen")
    }
}
