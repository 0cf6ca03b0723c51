/// How `fetch` sends its request: method, headers and body exactly as given, and whether OAuth 2.0 consent may be shown.
public struct ManagedApiFetchOptions: Sendable {
    /// The HTTP method; defaults to "GET".
    public var method: String
    /// Sent exactly as given; no defaults are added (only `Authorization` when the API's auth needs it).
    public var headers: [String: String]
    /// Sent as UTF-8; set its `Content-Type` in `headers` (the platform's URL loading may label it otherwise).
    public var body: String?
    /// Whether the OAuth 2.0 consent screen may be shown; defaults to `.ifRequired`.
    public var prompt: AuthPrompt

    /// Options with the seed's defaults: GET, no headers, no body, `.ifRequired`.
    public init(method: String = "GET", headers: [String: String] = [:], body: String? = nil, prompt: AuthPrompt = .ifRequired) {
        self.method = method
        self.headers = headers
        self.body = body
        self.prompt = prompt
    }
}
