import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#endif

/// Where an executor may send a request: a host is resolved once and refused if any of its
/// addresses is loopback, private, link-local, CGNAT, unspecified or multicast (IPv4, IPv6
/// and IPv4-mapped IPv6), so that a tenant's URL cannot reach the server's own network.
/// The check that counts is made again on the address the connection is made to
/// (`OutboundDestinations.publicOnly`), so a name that changes its answer in between (DNS
/// rebinding) gains nothing; this one gives the early, readable refusal.
package enum OutboundTarget {
    package struct Refused: Error, CustomStringConvertible {
        package enum Reason: Sendable {
            case notHTTP, noHost, doesNotResolve(host: String), notPublic(host: String)
        }

        package let reason: Reason

        package var description: String {
            switch reason {
            case .notHTTP: "only http and https are allowed"
            case .noHost: "the URL has no host"
            case .doesNotResolve(let host): "\(host) does not resolve"
            case .notPublic(let host): "\(host) resolves to an address that is not public"
            }
        }
    }

    /// The addresses of `host`, as text, resolved on a thread of its own: `getaddrinfo`
    /// blocks for as long as DNS takes, and the cooperative pool has two threads here.
    package static func resolve(_ host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try resolveBlocking(host) }) }
        }
    }

    package static func resolveBlocking(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { throw Refused(reason: .doesNotResolve(host: host)) }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(cString: buffer)
                if !addresses.contains(text) { addresses.append(text) }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    /// Refuses a URL whose host is or resolves to a non-public address, unless `allowPrivate`.
    package static func vet(_ url: URL, allowPrivate: Bool) async throws -> [String] {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refused(reason: .notHTTP)
        }
        guard let host = url.host, !host.isEmpty else { throw Refused(reason: .noHost) }
        let addresses = try await resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        // Which private address it was is not said: that would map the server's network.
        if !allowPrivate, addresses.contains(where: { !isPublic($0) }) {
            throw Refused(reason: .notPublic(host: host))
        }
        return addresses
    }

    package static func isPublic(_ address: String) -> Bool { PublicAddress.isPublic(address) }
}
