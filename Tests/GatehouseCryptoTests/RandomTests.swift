import Foundation
import GatehouseCrypto
import Testing
import GatehouseFormats

/// Replays fixed bytes, so tests can steer rejection sampling into its reject branch.
final class ScriptedRandom: RandomSource, @unchecked Sendable {
    private var remaining: [UInt8]

    init(_ values: [UInt64]) {
        remaining = values.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    }

    func bytes(_ count: Int) -> [UInt8] {
        precondition(remaining.count >= count, "script ran out of bytes")
        defer { remaining.removeFirst(count) }
        return Array(remaining.prefix(count))
    }
}

struct RandomTests {
    @Test func systemRandomGivesFreshBytes() {
        let random = SystemRandom()
        #expect(random.bytes(0).isEmpty)
        let first = random.bytes(32)
        let second = random.bytes(32)
        #expect(first.count == 32)
        #expect(first != second)
    }

    @Test func seededRandomIsDeterministic() {
        #expect(SeededRandom(seed: 42).bytes(100) == SeededRandom(seed: 42).bytes(100))
        #expect(SeededRandom(seed: 42).bytes(32) != SeededRandom(seed: 43).bytes(32))
        #expect(SeededRandom(seed: 7).numericCode(digits: 6) == SeededRandom(seed: 7).numericCode(digits: 6))
        #expect(SeededRandom(seed: 7).token() == SeededRandom(seed: 7).token())
    }

    @Test func seededRandomIsOneStreamHoweverItIsSplit() {
        let split = SeededRandom(seed: [1, 2, 3] as [UInt8])
        let joined = split.bytes(3) + split.bytes(0) + split.bytes(40) + split.bytes(21)
        #expect(joined == SeededRandom(seed: [1, 2, 3] as [UInt8]).bytes(64))
    }

    @Test func seededRandomFollowsItsDocumentedConstruction() {
        // SHA-256(seed ‖ counter as big-endian UInt64); a UInt64 seed is its big-endian bytes.
        let seed: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 42]
        let expected = SHA256.hash(seed + [0, 0, 0, 0, 0, 0, 0, 0]) + SHA256.hash(seed + [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(SeededRandom(seed: 42).bytes(64) == expected)
    }

    @Test(arguments: [1, 2, 7, 10, 1_000_000, UInt64(1) << 63 + 1, UInt64.max])
    func uniformStaysBelowTheBound(bound: UInt64) {
        let random = SeededRandom(seed: bound)
        for _ in 0..<200 {
            #expect(random.uniform(below: bound) < bound)
        }
    }

    @Test func uniformRejectsTheBiasedLowRange() {
        // For bound 2^63 + 1, 2^64 mod bound = 2^63 - 1: values below that are rejected, else
        // 2^63 - 2 would map to the same residue as a second value and be twice as likely.
        let bound = UInt64(1) << 63 + 1
        let threshold = UInt64(1) << 63 - 1
        #expect(ScriptedRandom([0, threshold - 1, bound + 12345]).uniform(below: bound) == 12345)
        #expect(ScriptedRandom([threshold]).uniform(below: bound) == threshold)
        #expect(ScriptedRandom([UInt64.max]).uniform(below: bound) == UInt64.max % bound)
    }

    @Test func uniformHitsEveryResidue() {
        let random = SeededRandom(seed: 1)
        let seen = Set((0..<500).map { _ in random.uniform(below: 7) })
        #expect(seen == Set(0..<7))
    }

    @Test func numericCodeShape() {
        let random = SystemRandom()
        for digits in [1, 4, 6, 8, 20, 40] {
            let code = random.numericCode(digits: digits)
            #expect(code.count == digits)
            #expect(code.allSatisfy { $0.isASCII && $0.isNumber })
        }
    }

    @Test func numericCodeDistribution() {
        // 3000 six-digit codes from a fixed seed: 18000 digits, 1800 expected per value.
        let random = SeededRandom(seed: 2024)
        let codes = (0..<3000).map { _ in random.numericCode(digits: 6) }
        var counts = [Character: Int]()
        for code in codes {
            for digit in code { counts[digit, default: 0] += 1 }
        }
        #expect(counts.keys.sorted() == Array("0123456789"))
        for (digit, count) in counts {
            #expect((1600...2000).contains(count), "digit \(digit) appeared \(count) times")
        }
        let leadingZeros = codes.filter { $0.hasPrefix("0") }.count
        #expect((200...400).contains(leadingZeros), "\(leadingZeros) codes start with 0")
        #expect(Set(codes).count > 2950)
    }

    @Test func tokenIsBase64URLOfTheRequestedBytes() throws {
        let token = SystemRandom().token(byteCount: 32)
        #expect(token.count == 43)
        let decoded = try #require(Base64URL.decode(token))
        #expect(decoded.count == 32)
        #expect(SeededRandom(seed: 9).token(byteCount: 16) == Base64URL.encode(SeededRandom(seed: 9).bytes(16)))
    }
}
