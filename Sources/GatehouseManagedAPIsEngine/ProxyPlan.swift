import Foundation

/// Where one proxied call goes and the credential it carries; the server sends it.
public struct ProxyPlan: Sendable {
    public var url: URL
    /// Headers the credential sets, replacing any of the caller's with the same name.
    public var credentialHeaders: [(name: String, value: String)]
    /// Query parameters the caller may not set (an API key in the query), removed from theirs.
    public var reservedQueryNames: Set<String>
    public var definition: ManagedAPIDefinition
    /// The server-held client-credentials token this plan carries: a 401 from the upstream
    /// retires it once and the call is retried with a new one.
    public var serverToken: String?
    /// The credential as it may come back in an answer (an API that echoes its request, a
    /// redirect that repeats the query): the server takes it out before the device sees it.
    public var echoedSecrets: [String] = []
}
