import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ManagedAPIService {
    /// Calls the Managed API `name` at its base URL followed by `relativeUrl`, auth applied; `onSuccess` gets
    /// every HTTP status, `onError` only a call that could not be made.
    public func fetch(
        name: String, relativeUrl: String, options: ManagedApiFetchOptions = ManagedApiFetchOptions(),
        onSuccess: @escaping (ManagedApiFetchResponse) -> Void, onError: ((any Error) -> Void)? = nil
    ) {
        deliver({ try await self.fetch(name: name, relativeUrl: relativeUrl, options: options) }, onSuccess: onSuccess, onError: onError)
    }

    /// Calls the Managed API `name` and returns its answer, whatever the status; throws `ManagedAPIException`
    /// when the call could not be made.
    public func fetch(name: String, relativeUrl: String, options: ManagedApiFetchOptions = ManagedApiFetchOptions()) async throws
        -> ManagedApiFetchResponse
    {
        // Refused before anything is sent, definitions included.
        try RelativeURL.check(relativeUrl)
        let definition = try await definition(named: name)
        do {
            return try await call(definition, relativeUrl, options)
        } catch let error as ManagedAPIException where definition.mode == "proxied"
            && [ManagedAPIErrorCodes.UNKNOWN_API, "MANAGED_API_NOT_PROXIED"].contains(error.errorCode)
        {
            // The server's definition changed since the last sync (removed, or made direct): sync, and go once more if it did.
            try? await sync()
            guard let changed = try await knownDefinitions().first(where: { $0.name == name }), changed != definition else { throw error }
            return try await call(changed, relativeUrl, options)
        }
    }

    private func call(_ definition: ManagedAPIWire.Definition, _ relativeUrl: String, _ options: ManagedApiFetchOptions) async throws
        -> ManagedApiFetchResponse
    {
        switch definition.mode {
        case "proxied":
            return try await proxied(definition, relativeUrl, options)
        case "direct":
            return try await direct(definition, relativeUrl, options)
        default:
            throw ManagedAPIException.code(ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION, "\(definition.name) has an unknown mode \(definition.mode)")
        }
    }

    private func direct(_ definition: ManagedAPIWire.Definition, _ relativeUrl: String, _ options: ManagedApiFetchOptions) async throws
        -> ManagedApiFetchResponse
    {
        guard let base = URL(string: definition.baseUrl) else {
            throw ManagedAPIException.code(ManagedAPIErrorCodes.INVALID_URL, "the base URL of \(definition.name) is not a URL")
        }
        let url = try RelativeURL.join(base, relativeUrl)
        switch ManagedApiAuthType(rawValue: definition.authType) {
        case .none?:
            return try await send(Self.request(url, options, bearer: nil))
        case .bearerToken?:
            let stored: StoredTokens?
            do { stored = try await tokenStore.tokens(for: .bearer(definition.name)) } catch { throw ManagedAPIException.store(error) }
            guard let token = stored?.accessToken else {
                throw Self.missing("\(definition.name) needs a bearer token: call setBearerToken(_:forAPI:) first")
            }
            return try await send(Self.request(url, options, bearer: token))
        case .oauth2?:
            guard let client = definition.oauth2 else { throw Self.missing("\(definition.name) has no OAuth 2.0 client") }
            return try await oauth2(definition.name, client, url, options)
        case .basic?, .apiKey?:
            throw Self.missing("the secret of \(definition.name) (\(definition.authType)) stays on the server: it must be called proxied")
        case nil:
            throw Self.missing("\(definition.name) has an unknown auth type \(definition.authType)")
        }
    }

    /// L4: a 401 forces one refresh whatever the clock says and one retry; the second answer is returned as it is.
    /// A 403 is returned at once (RFC 6750: insufficient scope is not cured by a refresh).
    private func oauth2(_ name: String, _ client: ManagedAPIWire.OAuth2Client, _ url: URL, _ options: ManagedApiFetchOptions) async throws
        -> ManagedApiFetchResponse
    {
        let first = try await oauth.token(name: name, client: client, prompt: options.prompt)
        let answer = try await send(Self.request(url, options, bearer: first.token))
        guard answer.status == 401 else { return answer }
        let second: OAuthSession.Acquired
        do {
            // `.always` has had its consent; a second sheet in one call is never shown.
            let prompt = options.prompt == .always ? AuthPrompt.ifRequired : options.prompt
            second = try await oauth.token(name: name, client: client, prompt: prompt, rejected: first.token, consentAllowed: !first.viaConsent)
        } catch is OAuthSession.ConsentNotAllowed {
            return answer
        } catch let error as ManagedAPIException where error.errorCode == ManagedAPIErrorCodes.NETWORK
            || (error.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED && (error.statusCode ?? 500) >= 500)
        {
            // The refresh could not be made (L5): the API's own 401 is the answer there is.
            return answer
        }
        return try await send(Self.request(url, options, bearer: second.token))
    }

    /// `{base}/managed-apis/v1/{name}/proxy{relativeUrl}` with the session bearer; a Gatehouse 401 gets a fresh
    /// session token and one retry, any other Gatehouse refusal is thrown, an upstream answer is returned.
    private func proxied(_ definition: ManagedAPIWire.Definition, _ relativeUrl: String, _ options: ManagedApiFetchOptions) async throws
        -> ManagedApiFetchResponse
    {
        // The proxy's base (`/:name/proxy`), and the app's relative URL below it.
        let base = http.url(ManagedAPIWire.Endpoints.proxy(.GET, below: false), below: ManagedAPIWire.Endpoints.mount, ["name": definition.name])
        let url = try RelativeURL.join(base, relativeUrl)
        var rejected: String?
        while true {
            let token = try await accessToken(rejected)
            let request = Self.request(url, options, bearer: token)
            let (data, response) = try await exchange(request)
            guard response.value(forHTTPHeaderField: ManagedAPIWire.originHeader) != nil else {
                return ManagedApiFetchResponse(data, response)
            }
            if response.statusCode == 401, rejected == nil {
                rejected = token
                continue
            }
            throw Self.refusal(HTTPResponse(data: data, response: response))
        }
    }

    /// The caller's method, headers and body exactly; only `Authorization` is set, when a token applies.
    static func request(_ url: URL, _ options: ManagedApiFetchOptions, bearer: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = options.method
        for (name, value) in options.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = options.body.map { Data($0.utf8) }
        return request
    }

    /// Straight through the transport: `HTTPClient` would add a JSON `Content-Type` the caller did not give.
    private func send(_ request: URLRequest) async throws -> ManagedApiFetchResponse {
        let (data, response) = try await exchange(request)
        return ManagedApiFetchResponse(data, response)
    }

    private func exchange(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await http.transport.send(request)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ManagedAPIException.network(error)
        }
    }

    private static func missing(_ message: String) -> ManagedAPIException {
        .code(ManagedAPIErrorCodes.MISSING_AUTH_CONFIGURATION, message)
    }
}
