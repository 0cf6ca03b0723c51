import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an executor may send a request: a host is resolved once and refused if any of its
/// addresses is loopback, private, link-local, CGNAT, unspecified or multicast (IPv4, IPv6
/// and IPv4-mapped IPv6), so that a tenant's URL cannot reach the server's own network.
/// URLSession then resolves again; a name that changes its answer in between (DNS
/// rebinding) is the remaining gap, which an egress proxy closes.
enum OutboundTarget {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// The addresses of `host`, as text, resolved on a thread of its own: `getaddrinfo`
    /// blocks for as long as DNS takes, and the cooperative pool has two threads here.
    static func resolve(_ host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try resolveBlocking(host) }) }
        }
    }

    static func resolveBlocking(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { throw Refused(description: "\(host) does not resolve") }
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
    static func vet(_ url: URL, allowPrivate: Bool) async throws -> [String] {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refused(description: "only http and https are allowed")
        }
        guard let host = url.host, !host.isEmpty else { throw Refused(description: "the URL has no host") }
        let addresses = try await resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        // Which private address it was is not said: that would map the server's network.
        if !allowPrivate, addresses.contains(where: { !isPublic($0) }) {
            throw Refused(description: "\(host) resolves to an address that is not public")
        }
        return addresses
    }

    static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return isPublicV4(withUnsafeBytes(of: v4) { Array($0) }) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address.split(separator: "%").first.map(String.init) ?? address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return isPublicV4(Array(bytes[12..<16])) }
        if bytes.allSatisfy({ $0 == 0 }) || (bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1) { return false }  // :: and ::1
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local, deprecated
        // Translators and tunnels carry an IPv4 address inside: it is judged as IPv4.
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublicV4(Array(bytes[12..<16])) }  // 64:ff9b::/96 NAT64
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return false }  // 64:ff9b:1::/48 local NAT64
        if bytes[0] == 0x20, bytes[1] == 0x02 { return isPublicV4(Array(bytes[2..<6])) }  // 2002::/16 6to4
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] { return false }  // 2001::/32 Teredo: the inner address is hidden
        if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return false }  // 2001:db8::/32 documentation
        if bytes[0..<8] == [0x01, 0, 0, 0, 0, 0, 0, 0] { return false }  // 100::/64 discard
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return false }  // IPv4-compatible, deprecated
        return true
    }

    static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): return false
        case (100, 64...127): return false  // CGNAT
        case (169, 254): return false
        case (172, 16...31): return false
        case (192, 168): return false
        case (192, 0) where b[2] == 0: return false
        case (198, 18...19): return false
        case (224...255, _): return false
        default: return true
        }
    }
}
