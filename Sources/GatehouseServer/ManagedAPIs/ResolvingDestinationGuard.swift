import Foundation
import GatehouseManagedAPIsEngine

/// The server's destination guard: names resolved off the pool, non-public addresses refused.
struct ResolvingDestinationGuard: DestinationGuard {
    func vet(_ url: URL, allowPrivate: Bool) async throws {
        do {
            _ = try await OutboundTarget.vet(url, allowPrivate: allowPrivate)
        } catch let refused as OutboundTarget.Refused {
            throw ManagedAPIError(.destinationRefused, refused.description)
        }
    }
}
