import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides the client's address: the peer's, or the nearest untrusted hop of
/// `X-Forwarded-For` when the peer is a configured proxy.
public struct ClientAddressResolver: Sendable {
    private let trusted: [AddressRange]

    /// - Parameter trustedProxies: addresses (`10.0.0.1`) or CIDR ranges (`10.0.0.0/8`, `fd00::/8`).
    public init(trustedProxies: [String]) {
        trusted = trustedProxies.compactMap(AddressRange.init)
    }

    public func resolve(peer: String, forwardedFor: String?) -> String {
        guard !trusted.isEmpty, isTrusted(peer), let forwardedFor else { return peer }
        // Walk from the right: each hop was appended by the proxy to its left's peer.
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard AddressRange.bytes(of: hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return hops.first ?? peer
    }

    private func isTrusted(_ address: String) -> Bool {
        guard let bytes = AddressRange.bytes(of: address) else { return false }
        return trusted.contains { $0.contains(bytes) }
    }
}

/// An IPv4 or IPv6 network, compared as bytes.
struct AddressRange: Sendable {
    let network: [UInt8]
    let prefix: Int

    init?(_ text: String) {
        let pieces = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let bytes = Self.bytes(of: pieces[0]) else { return nil }
        let bits = bytes.count * 8
        let prefix = pieces.count == 2 ? Int(pieces[1]) : bits
        guard let prefix, prefix >= 0, prefix <= bits else { return nil }
        network = bytes
        self.prefix = prefix
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var remaining = prefix
        for index in 0..<address.count where remaining > 0 {
            let take = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
            if address[index] & mask != network[index] & mask { return false }
            remaining -= take
        }
        return true
    }

    /// Parses a numeric IPv4 or IPv6 address with `inet_pton`.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
