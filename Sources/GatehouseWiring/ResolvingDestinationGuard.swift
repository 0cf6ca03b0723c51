import Foundation
import GatehouseManagedAPIsEngine
import GatehouseOutbound

/// The server's destination guard: names resolved off the pool, non-public addresses refused.
/// Nothing needs resolving when private addresses are allowed (a development definition) or
/// the host is an address already, which saves a thread and a DNS round trip per call.
package struct ResolvingDestinationGuard: DestinationGuard {
    package init() {}

    package func vet(_ url: URL, allowPrivate: Bool) async throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw ManagedAPIError.destinationRefused(.notHTTPWithHost)
        }
        if allowPrivate { return }
        let literal = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if Self.isAddress(literal) {
            guard OutboundTarget.isPublic(literal) else { throw ManagedAPIError.destinationRefused(.notPublic(host: host)) }
            return
        }
        do {
            _ = try await OutboundTarget.vet(url, allowPrivate: false)
        } catch let refused as OutboundTarget.Refused {
            switch refused.reason {
            case .notHTTP, .noHost: throw ManagedAPIError.destinationRefused(.notHTTPWithHost)
            case .doesNotResolve(let host): throw ManagedAPIError.destinationRefused(.doesNotResolve(host: host))
            case .notPublic(let host): throw ManagedAPIError.destinationRefused(.resolvesToPrivate(host: host))
            }
        }
    }

    /// A numeric IPv4 or IPv6 address as `inet_pton` reads it (no short or octal forms: those
    /// are names, and resolving them finds what they stand for).
    package static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text.split(separator: "%").first.map(String.init) ?? text, &v6) == 1
    }
}
