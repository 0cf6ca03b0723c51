import Foundation
import GatehouseClientCore
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The OAuth 2.0 token endpoint of a public client (RFC 6749 §4.1.3 and §6): form POSTs, no client secret.
struct TokenEndpoint: Sendable {
    let http: HTTPClient
    let now: @Sendable () -> Date

    /// What the endpoint answered, sorted into what the caller must do about it.
    enum Failure: Error {
        /// `invalid_grant` or `invalid_client` (RFC 6749 §5.2): the grant is dead, the tokens must go.
        case grantRejected(ManagedAPIException)
        /// Anything else: the tokens stay (a 5xx, a timeout, another OAuth error).
        case other(ManagedAPIException)
    }

    /// `grant_type=authorization_code` with the PKCE verifier.
    func exchange(code: String, verifier: String, redirectURI: URL, endpoint: String, clientId: String) async throws -> StoredTokens {
        try await post(endpoint, [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString), ("client_id", clientId),
            ("code_verifier", verifier),
        ], previous: nil)
    }

    /// `grant_type=refresh_token`, merged into `previous` (the old refresh token and scope stay when the answer omits them).
    func refresh(_ previous: StoredTokens, refreshToken: String, endpoint: String, clientId: String) async throws -> StoredTokens {
        try await post(endpoint, [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientId)], previous: previous)
    }

    private func post(_ endpoint: String, _ fields: [(String, String)], previous: StoredTokens?) async throws -> StoredTokens {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw Failure.other(.code(ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION, "the token endpoint \(endpoint) is not an http(s) URL"))
        }
        var request = HTTPClient.request("POST", url, body: Data(Self.form(fields).utf8))
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let answer: HTTPResponse
        do {
            answer = try await http.response(request)
        } catch {
            throw Failure.other(.network(error))
        }
        guard (200..<300).contains(answer.status) else { throw Self.failure(answer) }
        // The token goes into a header as it is: RFC 6750 `b64token` characters only.
        guard let body = try? JSONDecoder().decode(TokenResponse.self, from: answer.data), !body.access_token.isEmpty,
            body.access_token.utf8.count <= 8192, body.access_token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw Failure.other(.code(ManagedAPIErrorCodes.OAUTH_FAILED, "the token endpoint answered no access token", status: answer.status))
        }
        return StoredTokens(
            accessToken: body.access_token,
            refreshToken: body.refresh_token ?? previous?.refreshToken,
            // A lifetime past a year (or not a finite number) is treated as unknown: the 401 path is the backstop.
            expiresAt: body.expires_in.flatMap { $0.seconds.isFinite && (0...31_536_000).contains($0.seconds) ? now().addingTimeInterval($0.seconds) : nil },
            scope: body.scope ?? previous?.scope,
            tokenType: body.token_type ?? previous?.tokenType)
    }

    private static func failure(_ answer: HTTPResponse) -> Failure {
        let body = try? JSONDecoder().decode(TokenError.self, from: answer.data)
        let description = body?.error_description.map { ": \($0)" } ?? ""
        let message = "the token endpoint answered \(answer.status) \(body?.error ?? "")\(description)"
        let error = ManagedAPIException.code(ManagedAPIErrorCodes.OAUTH_FAILED, message, status: answer.status)
        if body?.error == "invalid_grant" || body?.error == "invalid_client" { return .grantRejected(error) }
        return .other(error)
    }

    /// `application/x-www-form-urlencoded`, everything but the unreserved characters escaped (a `+` in a code stays a `+`).
    static func form(_ fields: [(String, String)]) -> String { PercentEncoding.form(fields) }
}

/// RFC 6749 §5.1; `expires_in` is RECOMMENDED only, and some providers send it as a string.
private struct TokenResponse: Decodable {
    var access_token: String
    var token_type: String?
    var expires_in: Seconds?
    var refresh_token: String?
    var scope: String?
}

/// RFC 6749 §5.2.
private struct TokenError: Decodable {
    var error: String
    var error_description: String?
}

/// A number of seconds sent as a JSON number or a numeric string.
private struct Seconds: Decodable {
    let seconds: TimeInterval

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            seconds = number
        } else if let text = try? container.decode(String.self), let number = Double(text) {
            seconds = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expires_in is not a number")
        }
    }
}
