#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation

// Safe: `running` is only read and written under `lock`; `prefersEphemeralWebBrowserSession` and `anchor` (a @Sendable
// closure) are immutable `let`s.
/// Consent in `ASWebAuthenticationSession`, the system browser sheet (RFC 8252 §8.12: no embedded web view).
///
/// The redirect URI is a private-use scheme the app owns (`com.example.app:/oauth`), or on iOS 17.4 and
/// macOS 14.4 a claimed `https` URL (which needs Associated Domains).
public final class WebAuthenticationConsentPresenter: ConsentPresenter, @unchecked Sendable {
    /// Whether the sheet shares no cookies with Safari: no "wants to sign in" prompt, and no SSO reuse.
    public let prefersEphemeralWebBrowserSession: Bool
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    private let lock = NSLock()
    // The running session is kept alive here until it completes.
    private var running: [ObjectIdentifier: (ASWebAuthenticationSession, AnchorProvider)] = [:]

    /// A presenter whose sheet is anchored to `presentationAnchor` (by default a new window, which the system accepts).
    public init(
        prefersEphemeralWebBrowserSession: Bool = false,
        presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor = { ASPresentationAnchor() }
    ) {
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        anchor = presentationAnchor
    }

    /// Runs the session; the user closing it is `OAUTH_CANCELLED`.
    public func present(authorizationURL: URL, redirectURI: URL) async throws -> URL {
        guard let scheme = redirectURI.scheme?.lowercased() else {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_FAILED, "the redirect URI \(redirectURI) has no scheme")
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
            Task { @MainActor in
                self.start(authorizationURL, redirectURI, scheme, continuation)
            }
        }
    }

    @MainActor
    private func start(_ url: URL, _ redirectURI: URL, _ scheme: String, _ continuation: CheckedContinuation<URL, any Error>) {
        var sessionID: ObjectIdentifier?
        let completion: (URL?, (any Error)?) -> Void = { [weak self] callback, error in
            if let self, let sessionID { self.lock.withLock { _ = self.running.removeValue(forKey: sessionID) } }
            if let callback { return continuation.resume(returning: callback) }
            if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                return continuation.resume(throwing: ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_CANCELLED, "the user closed the sign-in sheet"))
            }
            continuation.resume(throwing: ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_FAILED, "the sign-in sheet failed: \(String(describing: error))"))
        }
        let session: ASWebAuthenticationSession
        if #available(iOS 17.4, macOS 14.4, *), scheme == "https", let host = redirectURI.host {
            session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: redirectURI.path), completionHandler: completion)
        } else {
            session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }
        let provider = AnchorProvider(anchor: anchor)
        session.presentationContextProvider = provider
        session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        sessionID = ObjectIdentifier(session)
        lock.withLock { running[ObjectIdentifier(session)] = (session, provider) }
        if !session.start() {
            lock.withLock { _ = running.removeValue(forKey: ObjectIdentifier(session)) }
            continuation.resume(throwing: ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_FAILED, "the sign-in sheet could not start"))
        }
    }
}

/// Answers the session's anchor question on the main actor, where the system asks it.
private final class AnchorProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
    let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
