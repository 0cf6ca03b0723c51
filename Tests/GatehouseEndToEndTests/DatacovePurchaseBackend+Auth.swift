import GatehouseAuth
import GatehousePurchases

extension DatacovePurchaseBackend {
    /// The wiring an app writes: purchases reported with the signed-in `GatehouseAuth` session.
    init(auth: AuthClient) {
        self.init { try await auth.session.authorizedResponse($0) }
    }
}
