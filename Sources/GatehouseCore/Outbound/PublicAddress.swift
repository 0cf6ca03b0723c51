#if canImport(Glibc)
import Glibc
#endif

/// Whether an address is on the public internet: not loopback, private, link-local, CGNAT,
/// unspecified, multicast, documentation or a tunnel that hides its inner address (IPv4,
/// IPv6 and IPv4-mapped IPv6). A URL a tenant chose may only reach such an address.
public enum PublicAddress {
    /// `address` as text (IPv4 or IPv6, a zone allowed).
    public static func isPublic(_ address: String) -> Bool {
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
        case (192, 0) where b[2] == 0 || b[2] == 2: return false  // IETF protocol assignments, TEST-NET-1
        case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false  // TEST-NET-2 and -3
        case (198, 18...19): return false
        case (224...255, _): return false
        default: return true
        }
    }

    /// The address in a socket address curl or `getaddrinfo` produced; false for any other family.
    public static func isPublic(_ address: UnsafePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in.self).pointee.sin_addr
            return isPublicV4(withUnsafeBytes(of: v4) { Array($0) })
        case AF_INET6:
            var v6 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_addr
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil else { return false }
            return isPublic(String(cString: text))
        default:
            return false
        }
    }
}
