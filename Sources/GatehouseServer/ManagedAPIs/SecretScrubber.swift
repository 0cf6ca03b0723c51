import Foundation

// Safe: `needles`, `keep` and `shortest` are immutable `let`s; `carry` is mutated without a lock, but each scrubber serves one proxied
// response, and only that response's single stream producer calls `scrub(_: Data)` and `finish()`, in sequence.
/// Takes a definition's credential out of what the upstream answers before the device sees
/// it: an API that echoes its request, or a redirect that repeats a query key in `Location`
/// and in its page, would otherwise hand the secret to every user. The body is scrubbed as it
/// streams, holding back only as many bytes as the longest secret could straddle.
final class SecretScrubber: @unchecked Sendable {
    static let replacement = Data("[redacted]".utf8)
    /// Shorter values are not scrubbed: replacing every "abc" would garble bodies.
    static let minimumLength = 8

    /// Longest first.
    private let needles: [BytePattern]
    private let keep: Int
    private let shortest: Int
    private var carry = Data()

    /// Nil when nothing is long enough to scrub.
    init?(secrets: [String]) {
        var needles: [BytePattern] = []
        for secret in secrets where secret.utf8.count >= Self.minimumLength {
            let needle = BytePattern(Array(secret.utf8))
            if !needles.contains(where: { $0.bytes == needle.bytes }) { needles.append(needle) }
        }
        needles.sort { $0.count > $1.count }
        guard let longest = needles.first, let shortest = needles.last else { return nil }
        self.needles = needles
        keep = longest.count - 1
        self.shortest = shortest.count
    }

    /// The part of `chunk` (after what was held back) that can be sent now, scrubbed.
    func scrub(_ chunk: Data) -> Data {
        var buffer = carry + chunk
        replaceAll(in: &buffer)
        let sendable = max(0, buffer.count - keep)
        carry = buffer.suffix(from: buffer.startIndex + sendable)
        return buffer.prefix(sendable)
    }

    /// What was held back, at the end of the body.
    func finish() -> Data {
        defer { carry = Data() }
        return carry
    }

    func scrub(_ text: String) -> String {
        // Most header values are shorter than any secret.
        if text.utf8.count < shortest { return text }
        var data = Data(text.utf8)
        replaceAll(in: &data)
        return String(decoding: data, as: UTF8.self)
    }

    private func replaceAll(in data: inout Data) {
        for needle in needles {
            let found = data.withUnsafeBytes { needle.offsets(in: $0) }
            if found.isEmpty { continue }
            var replaced = Data(capacity: data.count)
            var copied = 0
            data.withUnsafeBytes { bytes in
                for offset in found {
                    replaced.append(contentsOf: bytes[copied..<offset])
                    replaced.append(Self.replacement)
                    copied = offset + needle.count
                }
                replaced.append(contentsOf: bytes[copied...])
            }
            data = replaced
        }
    }
}

/// A byte string searched for with Knuth–Morris–Pratt: time linear in what is searched
/// whatever an upstream sends (a naive search is quadratic on near-misses of a long secret),
/// and no detour through `NSData`, whose `range(of:)` took 2% of a proxied call's CPU.
struct BytePattern {
    let bytes: [UInt8]
    /// For each prefix length, the length of its longest proper border.
    private let fallback: [Int]

    var count: Int { bytes.count }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var fallback = [Int](repeating: 0, count: bytes.count + 1)
        var border = 0
        for index in bytes.indices.dropFirst() {
            while border > 0, bytes[index] != bytes[border] { border = fallback[border] }
            if bytes[index] == bytes[border] { border += 1 }
            fallback[index + 1] = border
        }
        self.fallback = fallback
    }

    /// Where the pattern starts in `haystack`, left to right, matches never overlapping.
    func offsets(in haystack: UnsafeRawBufferPointer) -> [Int] {
        guard !bytes.isEmpty, haystack.count >= bytes.count else { return [] }
        var found: [Int] = []
        var matched = 0
        for (index, byte) in haystack.enumerated() {
            while matched > 0, byte != bytes[matched] { matched = fallback[matched] }
            if byte == bytes[matched] { matched += 1 }
            if matched == bytes.count {
                found.append(index + 1 - matched)
                matched = 0
            }
        }
        return found
    }
}
