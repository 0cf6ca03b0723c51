import Foundation

/// The operator's redirect chain as a small state machine, shared by every carrier check: it is told each
/// hop's answer and says what to fetch next, or how the walk ended. The URL that matches `redirectUri` is
/// read, never fetched (it may be the app's own scheme or Gatehouse's callback).
struct RedirectWalk: Sendable {
    enum Next: Equatable {
        case fetch(URL)
        case done(CarrierCheckOutcome)
    }

    let redirectUri: URL
    let maxRedirects: Int
    /// The first thing to do.
    let start: Next
    private(set) var redirects = 0

    /// A walk from the challenge's `url`; `nil` when the challenge lacks `url` or `redirectUri`.
    init?(_ challenge: CarrierCheckChallenge, maxRedirects: Int) {
        guard let url = challenge.url, let redirectUri = challenge.redirectUri else { return nil }
        self.redirectUri = redirectUri
        self.maxRedirects = maxRedirects
        start = Self.matches(url, redirectUri) ? .done(Self.outcome(at: url)) : Self.fetchable(url)
    }

    /// After `url` answered `status` (with `location`): follow a redirect, or stop.
    mutating func answered(_ url: URL, status: Int, location: String?) -> Next {
        guard [301, 302, 303, 307, 308].contains(status),
            let location = location?.trimmingCharacters(in: .whitespaces), !location.isEmpty,
            let target = URL(string: location, relativeTo: url)?.absoluteURL
        else { return .done(.redirectError) }
        redirects += 1
        if Self.matches(target, redirectUri) { return .done(Self.outcome(at: target)) }
        guard redirects < maxRedirects else { return .done(.redirectError) }
        return Self.fetchable(target)
    }

    /// Only http(s) URLs with a host are fetched.
    private static func fetchable(_ url: URL) -> Next {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            return .done(.redirectError)
        }
        return .fetch(url)
    }

    /// Same scheme, host, port (defaults filled in) and path; the query does not count.
    static func matches(_ url: URL, _ redirectUri: URL) -> Bool {
        func key(_ url: URL) -> [String?] {
            let scheme = url.scheme?.lowercased()
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            let path = url.path.isEmpty ? "/" : url.path
            return [scheme, url.host?.lowercased(), port.map(String.init), path]
        }
        return key(url) == key(redirectUri)
    }

    /// `code`, `state` and `error` from the query of the redirect that reached `redirectUri`.
    static func outcome(at url: URL) -> CarrierCheckOutcome {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        return .redirected(code: value("code"), state: value("state"), error: value("error"))
    }
}
