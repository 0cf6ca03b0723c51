import Foundation
import GatehouseCrypto

/// The shape of issued secrets: `<prefix>_<id hex>.<random>`. The id finds the row, the
/// random part is compared by hash in constant time.
package struct SecretToken {
    package let id: String
    package let secret: String

    package static func issue(prefix: String, id: UUID, random: any RandomSource) -> (token: String, hash: [UInt8]) {
        let secret = random.token(byteCount: 32)
        let hex = id.lowercased.replacingOccurrences(of: "-", with: "")
        return ("\(prefix)_\(hex).\(secret)", SHA256.hash(Data(secret.utf8)))
    }

    /// Splits a presented token; `nil` for anything that is not ours.
    package static func parse(_ token: String, prefix: String) -> SecretToken? {
        guard token.count < 200, token.hasPrefix(prefix + "_") else { return nil }
        let body = token.dropFirst(prefix.count + 1)
        guard let dot = body.firstIndex(of: "."), body.distance(from: body.startIndex, to: dot) == 32 else { return nil }
        let hex = String(body[..<dot])
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        var uuid = hex.lowercased()
        for offset in [8, 13, 18, 23] { uuid.insert("-", at: uuid.index(uuid.startIndex, offsetBy: offset)) }
        let secret = String(body[body.index(after: dot)...])
        guard !secret.isEmpty else { return nil }
        return SecretToken(id: uuid, secret: secret)
    }

    package func matches(hash: [UInt8]) -> Bool {
        constantTimeEquals(SHA256.hash(Data(secret.utf8)), hash)
    }
}
