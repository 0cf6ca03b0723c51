import Foundation

/// The shared strict base64 engine behind `Base64` and `Base64URL` (RFC 4648 §4 and §5).
///
/// Strict means every string has exactly one accepted spelling: no whitespace, no characters
/// from the other alphabet, padding exactly as the variant requires, and unused trailing bits
/// zero. Tokens and signatures compared as strings depend on that uniqueness.
struct Base64Codec: Sendable {
    private let alphabet: [UInt8]
    private let reverse: [UInt8]
    private let padded: Bool
    private static let invalid: UInt8 = 0xFF

    static let standard = Base64Codec(last2: "+/", padded: true)
    static let url = Base64Codec(last2: "-_", padded: false)

    private init(last2: String, padded: Bool) {
        alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\(last2)".utf8)
        var reverse = [UInt8](repeating: Self.invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            reverse[Int(character)] = UInt8(value)
        }
        self.reverse = reverse
        self.padded = padded
    }

    func encode(_ data: some DataProtocol) -> String {
        let bytes = Array(data)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            append(group, characters: 4, to: &output)
            index += 3
        }
        switch bytes.count - index {
        case 1:
            append(UInt32(bytes[index]) << 16, characters: 2, to: &output)
            if padded { output.append(contentsOf: Array("==".utf8)) }
        case 2:
            append(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, characters: 3, to: &output)
            if padded { output.append(UInt8(ascii: "=")) }
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    func decode(_ string: some StringProtocol) -> [UInt8]? {
        var characters = Array(string.utf8)
        if padded {
            guard characters.count % 4 == 0 else { return nil }
            var padding = 0
            while padding < 2, characters.last == UInt8(ascii: "=") {
                characters.removeLast()
                padding += 1
            }
            // "xx=" without its second "=" was caught by the length check; a third "=" stays in
            // `characters` and fails the alphabet lookup below.
        }
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        for (index, character) in characters.enumerated() {
            let value = reverse[Int(character)]
            guard value != Self.invalid else { return nil }
            group = group << 6 | UInt32(value)
            if index % 4 == 3 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
            }
        }
        switch characters.count % 4 {
        case 2:
            guard group & 0x0F == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            guard group & 0x03 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }

    private func append(_ group: UInt32, characters count: Int, to output: inout [UInt8]) {
        for position in 0..<count {
            output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)])
        }
    }
}
