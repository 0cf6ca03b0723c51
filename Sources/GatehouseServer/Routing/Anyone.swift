import GatehouseHTTP
import GatehouseWire

/// The authenticator of endpoints that take no credential: everyone passes.
struct Anyone: InlineAuthenticator {
    struct Caller: Sendable {}
    typealias Principal = Caller
    let credential = Credential.none.rawValue

    func authenticateInline(_ request: Request, context: RequestContext) throws -> Caller { Caller() }
}

/// The authenticator of a payload signed inside its own body (Apple's JWS): the route passes
/// everyone, and the engine verifies the signature before it believes a word.
struct SignedInBody: InlineAuthenticator {
    struct Payload: Sendable {}
    typealias Principal = Payload
    let credential = Credential.signedPayload.rawValue

    func authenticateInline(_ request: Request, context: RequestContext) throws -> Payload { Payload() }
}
