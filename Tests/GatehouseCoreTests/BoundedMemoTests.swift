import GatehouseCore
import Testing

@Suite struct BoundedMemoTests {
    private struct Refused: Error {}

    @Test func anInputSeenBeforeIsNotComputedAgain() {
        let memo = BoundedMemo<String, Int>()
        var calls = 0
        #expect(memo.value(for: "a") { calls += 1; return 1 } == 1)
        #expect(memo.value(for: "a") { calls += 1; return 2 } == 1)
        #expect(memo.value(for: "b") { calls += 1; return 3 } == 3)
        #expect(calls == 2)
    }

    @Test func aFailureIsNotRemembered() throws {
        let memo = BoundedMemo<String, Int>()
        #expect(throws: Refused.self) { try memo.value(for: "x") { throw Refused() } }
        #expect(memo.count == 0)
        #expect(try memo.value(for: "x") { 7 } == 7)
    }

    @Test func aFloodOfDistinctInputsStartsItOver() {
        let memo = BoundedMemo<Int, Int>(capacity: 3)
        for key in 0..<10 { _ = memo.value(for: key) { key } }
        #expect(memo.count <= 3)
        #expect(memo.value(for: 9) { -1 } == 9)
    }
}
