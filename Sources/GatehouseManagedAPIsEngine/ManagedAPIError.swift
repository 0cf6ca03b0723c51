/// A refusal of the managed APIs engine, with a code of its own meaning that the dialects map to
/// their envelopes. It carries no text: `reason` says what was refused, as data, and the
/// dialects word it (`ManagedAPIError+Text.swift` in the server).
public struct ManagedAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// No such managed API for this tenant.
        case notFound
        /// A definition contradicts itself or cannot work in its mode.
        case definitionInvalid
        /// A secret was given but the server has no key to seal it with.
        case secretKeyMissing
        /// The proxy was asked for a `direct` definition.
        case notProxied
        /// A relative path the proxy will not send (absolute, escaping the base, encoded tricks).
        case pathRefused
        /// The destination resolves to an address the definition may not reach.
        case destinationRefused
        /// The credential could not be had: the token endpoint failed or a stored secret no longer opens.
        case credentialUnavailable
    }

    /// What was refused.
    public enum Reason: Equatable, Sendable {
        case noSuchAPI(String)
        /// The definition breaks a rule of `ManagedAPIDefinition+Rules`.
        case definition(DefinitionRule)
        /// No managed-api-secret-key: no secret can be kept (saving) or opened (calling).
        case secretKeyMissing(saving: Bool)
        /// The named definition is `direct`: devices call it themselves.
        case direct(String)
        case path(PathRule)
        case destination(DestinationRefusal)
        case credential(CredentialFailure)
    }

    /// The rule of a definition that it breaks.
    public enum DefinitionRule: Equatable, Sendable {
        case name
        case displayName
        case url(field: String, URLRule)
        case metadataPairs(limit: Int)
        case metadataKeyReserved(String)
        case metadataKey
        case metadataValue(key: String)
        case secret(maxBytes: Int)
        case basicUsername
        case apiKeyName
        case apiKeyHeader(String)
        case clientID
        case scopes
        case authorizationParamName
        case authorizationParamSetByDevice(String)
        case authorizationParamSecret(String)
        case authorizationParamText
        case authorizationEndpointMissing
        /// A direct definition of this type would ship its secret to every device.
        case directShipsSecret(authType: String)
        case directHoldsBearerToken
        case directClientCredentials
        case directClientSecret
        case proxiedAuthorizationCode
        case proxiedClientSecretMissing
        case proxiedSecretMissing(authType: String)
    }

    public enum URLRule: Equatable, Sendable {
        case absoluteHTTP, httpsOnly, noUserInfo, noQueryOrFragment, noControlCharacters
    }

    /// Why a relative path is not sent.
    public enum PathRule: Equatable, Sendable {
        case baseUnusable, leavesBase, notRelative, notPathCharacters, malformedEscape, encodedSeparator, emptySegment, hiddenDotSegment, climbsAboveBase
    }

    /// Why a destination may not be reached.
    public enum DestinationRefusal: Equatable, Sendable {
        case notHTTPWithHost
        /// The host is an address, and not a public one.
        case notPublic(host: String)
        /// The host is a name, and an address it resolves to is not public.
        case resolvesToPrivate(host: String)
        case doesNotResolve(host: String)
        /// The guard could not vet the named definition's address. Why is not kept: the guard's
        /// own failure can describe the server's resolver and network, which no caller is told.
        case unvetted(definition: String)
    }

    /// Why a credential could not be had.
    public enum CredentialFailure: Equatable, Sendable {
        case tokenRequestUnfinished(definition: String)
        case storedOAuthIncomplete
        case storedDefinitionUnreadable
        case tokenEndpointUnreachable(definition: String)
        case tokenEndpointRefused(definition: String, error: String)
        case tokenEndpointAnswered(definition: String, status: Int)
        case secretDoesNotOpen(definition: String)
    }

    public let code: Code
    public let reason: Reason

    public init(_ code: Code, _ reason: Reason) {
        self.code = code
        self.reason = reason
    }

    static func notFound(_ name: String) -> ManagedAPIError { ManagedAPIError(.notFound, .noSuchAPI(name)) }
    static func pathRefused(_ rule: PathRule) -> ManagedAPIError { ManagedAPIError(.pathRefused, .path(rule)) }
    static func credentialUnavailable(_ failure: CredentialFailure) -> ManagedAPIError { ManagedAPIError(.credentialUnavailable, .credential(failure)) }
    package static func destinationRefused(_ refusal: DestinationRefusal) -> ManagedAPIError { ManagedAPIError(.destinationRefused, .destination(refusal)) }

    public var description: String { "\(code): \(reason)" }
}
