import GatehouseHTTP
import GatehouseVerificationEngine

/// The parts of a DIDWW request that prove its caller, read into the engine's credential;
/// the engine sees no header, path or body.
enum DIDWWCredential {
    static func read(_ request: Request) -> VerificationCredential? {
        RequestSigner.credential(
            authorization: request.headers["Authorization"], timestamp: request.headers["x-timestamp"], method: request.method.rawValue,
            body: Array(request.body), contentType: request.headers["Content-Type"], path: request.rawPath)
    }
}
