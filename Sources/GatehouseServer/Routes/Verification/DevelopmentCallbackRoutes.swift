import Foundation
import GatehouseHTTP
import GatehouseVerificationEngine

/// Development only: a request callback that stands in for the customer's backend, so an
/// application in `public` mode works before that backend exists. It checks the callback's
/// signature (the application's secret, as a real backend must) and approves every start.
enum DevelopmentCallbackRoutes {
    static let path = "/dev/verification-callback"

    static func register(on router: Router, engine: VerificationEngine) {
        router.on(.POST, path, maxBodySize: 8192, .async { request, context in
            do {
                let caller = try await engine.authenticate(DIDWWCredential.read(request), clientAddress: context.clientAddress)
                guard caller.mode == .application else { return Response(status: 401) }
            } catch {
                return Response(status: 401)
            }
            return .json(raw: Data(#"{"action":"allow"}"#.utf8))
        })
    }
}
