import Foundation
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// Development only: a request callback that stands in for the customer's backend, so an
/// application in `public` mode works before that backend exists. It checks the callback's
/// signature (the application's secret, as a real backend must) and approves every start.
enum DevelopmentCallbackRoutes {
    static let path = OperatorEndpoints.developmentCallback.template

    static func register(on router: Router, engine: VerificationEngine) {
        router.on(OperatorEndpoints.developmentCallback, CallbackSignature(engine: engine), maxBodySize: 8192) { _, _, caller in
            // A backend answers a callback it cannot trust with a bare 401, as this one does.
            guard let caller, caller.mode == .application else { return Response(status: 401) }
            return .json(raw: Data(#"{"action":"allow"}"#.utf8))
        }
    }
}

/// The application's signature on a request callback, as the customer's backend checks it:
/// the caller when it holds, `nil` when it does not (the answer is then a bare 401).
struct CallbackSignature: Authenticator {
    let engine: VerificationEngine
    let credential = Credential.applicationKey.rawValue

    func authenticate(_ request: Request, context: RequestContext) async throws -> VerificationCaller? {
        try? await ApplicationKeyAuthenticator(engine: engine).authenticate(request, context: context)
    }
}
