import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Managed APIs (seed 002): each tenant's named third-party APIs, what devices may read of
/// them, and for `proxied` ones the credential the proxy adds. No HTTP here: the outbound
/// guard and the token endpoint calls are injected.
public final class ManagedAPIsEngine: Sendable {
    public let environment: Environment
    /// Seals static secrets and server-held tokens; without it no secret can be saved.
    let secrets: SecretBox?
    let destinations: any DestinationGuard
    /// One client-credentials token fetch per definition at a time on this node.
    let tokenFetches = SingleFlight<String>()
    /// Who holds a token lease: this node's own, random per process.
    let nodeID: String
    /// The proxy's definitions with their secrets opened, by tenant and name, for a few
    /// seconds; a save or a removal drops the entry here and, by notice, on the other nodes.
    let proxiedDefinitions: NodeCache<StoredDefinition>
    /// The name definition changes are announced under (see ``CacheInvalidations``).
    public static let definitionCacheName = "managed-api-definitions"

    public init(environment: Environment, secrets: SecretBox?, destinations: any DestinationGuard) {
        self.environment = environment
        self.secrets = secrets
        self.destinations = destinations
        nodeID = environment.ids.next().uuidString.lowercased()
        proxiedDefinitions = NodeCache(name: Self.definitionCacheName, clock: environment.clock)
        environment.invalidations.register(proxiedDefinitions)
    }

    var database: any Database { environment.database }
    var now: Date { environment.clock.now }

    /// A definition as the proxy keeps it on the node, its credential opened once when read
    /// (rather than on every call) with the percent-encoded form the scrubber also looks for.
    /// The opened secret is no more exposed in the node's memory than the sealing key, which
    /// the node holds anyway.
    struct StoredDefinition: Sendable {
        enum Secret: Sendable {
            case none
            case opened(String, escaped: String)
            /// Sealed under a key this node does not have.
            case unopenable
        }

        let definition: ManagedAPIDefinition
        let secret: Secret
    }

    static func definitionKey(tenantID: String, name: String) -> String { tenantID + "\n" + name }
}

/// Refuses destinations a definition may not reach (loopback, private and link-local
/// addresses unless the definition is in development); the server resolves names for it.
public protocol DestinationGuard: Sendable {
    func vet(_ url: URL, allowPrivate: Bool) async throws
}
