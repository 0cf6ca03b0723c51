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
    private let needles: [Data]
    private let keep: Int
    private let shortest: Int
    private var carry = Data()

    /// Nil when nothing is long enough to scrub.
    init?(secrets: [String]) {
        var needles: [Data] = []
        for secret in secrets where secret.utf8.count >= Self.minimumLength {
            let needle = Data(secret.utf8)
            if !needles.contains(needle) { needles.append(needle) }
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
            var from = data.startIndex
            while let found = data.range(of: needle, in: from..<data.endIndex) {
                data.replaceSubrange(found, with: Self.replacement)
                from = found.lowerBound + Self.replacement.count
            }
        }
    }
}
