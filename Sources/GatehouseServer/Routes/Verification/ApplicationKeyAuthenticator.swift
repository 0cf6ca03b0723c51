import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// The DIDWW check: the application's key and secret (`Basic`), or its key with a request
/// signature (`Application <key>:<signature>` over the method, path, timestamp and body);
/// the engine decides, and counts the failures, from the credential read out of the request.
struct ApplicationKeyAuthenticator: Authenticator {
    let engine: VerificationEngine
    let credential = Credential.applicationKey.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> VerificationCaller {
        try await engine.authenticate(DIDWWCredential.read(request), clientAddress: context.clientAddress)
    }
}
