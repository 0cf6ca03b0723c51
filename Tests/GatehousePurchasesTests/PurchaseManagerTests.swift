import Foundation
import Testing
@testable import GatehousePurchases
import GatehousePurchasesTesting

/// The manager's rules against a scripted backend, and the mapping of Datacove answers.
@Suite struct PurchaseManagerTests {
    /// Answers scripted verdicts and counts reports.
    actor ScriptedBackend: PurchaseBackend {
        var verdicts: [ReportVerdict]
        private(set) var reports: [(String, Bool)] = []
        var gate: CheckedContinuation<Void, Never>?
        init(_ verdicts: [ReportVerdict]) { self.verdicts = verdicts }
        nonisolated func appAccountToken() async -> UUID? { nil }
        func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict {
            reports.append((transaction.id, transferToCurrentAccount))
            try? await Task.sleep(for: .milliseconds(20))
            return verdicts.isEmpty ? .retryLater(reason: "none", retryAfter: nil) : verdicts.removeFirst()
        }
        func entitlement() async throws -> EntitlementSnapshot { throw CancellationError() }
        func reportCount() -> Int { reports.count }
        func transferFlags() -> [Bool] { reports.map(\.1) }
    }

    static func transaction(_ id: String) -> StoreVerificationResult {
        .verified(StoreTransaction(id: id, originalID: id, productID: "p", productType: .consumable, jwsRepresentation: "jws", appAccountToken: nil))
    }

    @Test func retryableAnswersLeaveTheTransactionUnfinished() async throws {
        for verdict in [ReportVerdict.retryLater(reason: "HTTP 429", retryAfter: 5), .retryLater(reason: "HTTP 503", retryAfter: nil)] {
            let store = ScriptedStoreKit()
            let manager = PurchaseManager(store: store, backend: ScriptedBackend([verdict]), confirmTransfer: { _ in true })
            store.deliverUpdate(Self.transaction("1"))
            #expect(await manager.handle(Self.transaction("1")) == .willRetry(verdict == .retryLater(reason: "HTTP 429", retryAfter: 5) ? "HTTP 429" : "HTTP 503"))
            #expect(store.finished.isEmpty && store.pending.count == 1)
        }
    }

    @Test func refusalsAndDeclinedMovesAreFinished() async throws {
        let store = ScriptedStoreKit()
        let backend = ScriptedBackend([.refused(status: 422, code: "PURCHASE_REFUSED", message: "no"), .transferOffered(message: "move?")])
        let manager = PurchaseManager(store: store, backend: backend, confirmTransfer: { _ in false })
        #expect(await manager.handle(Self.transaction("1")) == .refused(status: 422, code: "PURCHASE_REFUSED", message: "no"))
        #expect(await manager.handle(Self.transaction("2")) == .refused(status: 409, code: "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT", message: "move?"))
        #expect(store.finished == ["1", "2"])
        #expect(await backend.transferFlags() == [false, false])
    }

    @Test func anAcceptedMoveRetriesWithTheFlag() async throws {
        let store = ScriptedStoreKit()
        let receipt = PurchaseReceipt(kind: .serviceEntitlement, entitlementStatus: "active", transferred: true)
        let backend = ScriptedBackend([.transferOffered(message: "move?"), .accepted(receipt)])
        let manager = PurchaseManager(store: store, backend: backend, confirmTransfer: { _ in true })
        #expect(await manager.handle(Self.transaction("1")) == .completed(receipt))
        #expect(await backend.transferFlags() == [false, true] && store.finished == ["1"])
    }

    @Test func theSameTransactionFromTwoSourcesIsReportedOnce() async throws {
        let store = ScriptedStoreKit()
        let backend = ScriptedBackend([.accepted(PurchaseReceipt(kind: .creditPackage, creditsGranted: 5))])
        let manager = PurchaseManager(store: store, backend: backend, confirmTransfer: { _ in true })
        async let first = manager.handle(Self.transaction("1"))
        async let second = manager.handle(Self.transaction("1"))
        let outcomes = await [first, second]
        #expect(outcomes.allSatisfy { $0 == .completed(PurchaseReceipt(kind: .creditPackage, creditsGranted: 5)) })
        #expect(await backend.reportCount() == 1 && store.finished == ["1"])
    }

    @Test func theCachedEntitlementSurvivesARelaunchWithinTheOfflineWindow() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("entitlement-\(UUID().uuidString)/cache.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let serverTime = Date(timeIntervalSince1970: 1_800_000_000)
        let snapshot = EntitlementSnapshot(
            canExecuteGatedWorkflow: true, validUntil: serverTime.addingTimeInterval(30 * 86_400), entitlementStatus: "active", trialStatus: nil,
            trialOfferAvailable: false, plans: [], serverTime: serverTime)
        // The device clock runs an hour ahead of the server's; only elapsed time counts.
        let launch = serverTime.addingTimeInterval(3600)
        FileEntitlementCache(url: file).save(CachedEntitlement(snapshot: snapshot, receivedAt: launch))
        let clock = TestClock(launch.addingTimeInterval(2 * 86_400))
        let relaunched = PurchaseManager(store: ScriptedStoreKit(), backend: ScriptedBackend([]), cacheStore: FileEntitlementCache(url: file),
                                         now: { clock.now }, confirmTransfer: { _ in false })
        #expect(await relaunched.cachedEntitlement() == snapshot)
        #expect(await relaunched.canUseGatedFeatures())
        // A device clock set back before the answer arrived does not stretch the window.
        clock.now = launch.addingTimeInterval(-60)
        #expect(await relaunched.canUseGatedFeatures() == false)
        clock.now = launch.addingTimeInterval(3 * 86_400 + 1)
        #expect(await relaunched.cachedEntitlement() == nil)
        #expect(await relaunched.canUseGatedFeatures() == false)
    }

    @Test func aSandboxAnswerUnlocksOnlyThisSession() async throws {
        let store = ScriptedStoreKit()
        let manager = PurchaseManager(store: store, backend: ScriptedBackend([.accepted(PurchaseReceipt(kind: .linked, sandbox: true))]),
                                      confirmTransfer: { _ in false })
        #expect(await manager.canUseGatedFeatures() == false)
        #expect(await manager.handle(Self.transaction("1")) == .completed(PurchaseReceipt(kind: .linked, sandbox: true)))
        #expect(await manager.canUseGatedFeatures() && store.finished == ["1"])
        await manager.clearEntitlement()
        #expect(await manager.canUseGatedFeatures() == false)
    }

    final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current: Date
        init(_ start: Date) { current = start }
        var now: Date {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
    }

    @Test func datacoveAnswersMapToVerdicts() {
        func verdict(_ status: Int, _ body: String, retryAfter: String? = nil) -> ReportVerdict {
            DatacovePurchaseBackend.verdict(status: status, data: Data(body.utf8), retryAfter: retryAfter)
        }
        #expect(verdict(200, #"{"kind":"credit_package","creditsGranted":500}"#) == .accepted(PurchaseReceipt(kind: .creditPackage, creditsGranted: 500)))
        let entitlement = verdict(200, #"{"kind":"service_entitlement","entitlementStatus":"active","currentPeriodEnd":"2026-11-02T09:30:00.000Z"}"#)
        #expect(entitlement == .accepted(PurchaseReceipt(kind: .serviceEntitlement, entitlementStatus: "active",
                                                         currentPeriodEnd: Date(timeIntervalSince1970: 1_793_611_800))))
        let linked = #"{"statusCode":409,"error":{"code":"PURCHASE_LINKED_TO_ANOTHER_ACCOUNT","message":"m","canTransfer":true}}"#
        #expect(verdict(409, linked) == .transferOffered(message: "m"))
        let ended = #"{"statusCode":409,"error":{"code":"PURCHASE_LINKED_TO_ANOTHER_ACCOUNT","message":"m","canTransfer":false}}"#
        #expect(verdict(409, ended) == .refused(status: 409, code: "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT", message: "m"))
        #expect(verdict(400, #"{"error":{"code":"PURCHASE_INVALID","message":"x"}}"#) == .refused(status: 400, code: "PURCHASE_INVALID", message: "x"))
        #expect(verdict(429, #"{"error":{"code":"RATE_LIMITED","message":"x"}}"#, retryAfter: "7") == .retryLater(reason: "RATE_LIMITED", retryAfter: 7))
        #expect(verdict(503, "<html>") == .retryLater(reason: "HTTP 503", retryAfter: nil))
        #expect(verdict(401, "{}") == .retryLater(reason: "HTTP 401", retryAfter: nil))
        // Not a final refusal: a proxy's 404, a 413, a 200 that is not ours, a validation error.
        #expect(verdict(404, "<html>") == .retryLater(reason: "HTTP 404", retryAfter: nil))
        #expect(verdict(413, #"{"error":{"code":"PAYLOAD_TOO_LARGE","message":"x"}}"#) == .retryLater(reason: "PAYLOAD_TOO_LARGE", retryAfter: nil))
        #expect(verdict(200, "OK") == .retryLater(reason: "unexpected answer", retryAfter: nil))
        #expect(verdict(400, #"{"error":{"code":"STORE_NOT_CONFIGURED","message":"x"}}"#) == .retryLater(reason: "STORE_NOT_CONFIGURED", retryAfter: nil))
    }
}
