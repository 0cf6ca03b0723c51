import Foundation
import GatehouseAuth
import GatehouseCore
import GatehousePurchases
import GatehousePurchasesTesting
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The `GatehousePurchases` SDK against the live server with the scripted StoreKit: its
/// finishing rules, as seed 000 §07 and seed 003 state them.
@Suite struct PurchasesSDKTests {
    struct SimulatedCrash: Error {}

    /// Records what the transfer prompt was asked and answers as scripted.
    final class TransferPrompt: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [Bool]
        private(set) var asked: [String] = []
        init(_ answers: [Bool]) { self.answers = answers }
        func ask(_ message: String) -> Bool {
            lock.withLock {
                asked.append(message)
                return answers.isEmpty ? false : answers.removeFirst()
            }
        }
    }

    static func auth(_ store: StoreFixture, phone: String) async throws -> AuthClient {
        let client = AuthClient(
            baseURL: store.live.baseURL.appendingPathComponent("api"), apiKey: store.live.credentials.apiKeys!["IOS"]!,
            tokenStore: InMemoryTokenStore(), appVersion: "3.0.0", deviceName: "iPhone", now: { [clock = store.clock] in clock.now })
        let digits = phone.filter(\.isNumber)
        let before = try await store.client.outboxMessages(store.live, digits).count
        try await client.requestMobileOtp(phone: phone)
        _ = try await client.verifyMobileOtp(phone: phone, otp: try await store.client.outboxCode(store.live, digits, after: before))
        return client
    }

    static func transaction(_ id: String, _ product: String, _ jws: String, token: UUID? = nil) -> StoreVerificationResult {
        .verified(StoreTransaction(
            id: id, originalID: id, productID: product, productType: product == StoreFixture.credits ? .consumable : .autoRenewable,
            jwsRepresentation: jws, appAccountToken: token))
    }

    @Test(arguments: TestDatabaseKind.available)
    func datacoveFinishingRules(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        let alice = try await Self.auth(store, phone: "+14165550181")
        let storeKit = ScriptedStoreKit()
        let prompt = TransferPrompt([])
        let manager = PurchaseManager(store: storeKit, backend: DatacovePurchaseBackend(auth: alice), now: { [clock = store.clock] in clock.now },
                                      confirmTransfer: { prompt.ask($0) })
        await manager.start()

        // A credit package: reported, granted, then finished.
        storeKit.script(StoreFixture.credits, .success(Self.transaction("7000000000000001", StoreFixture.credits, try store.creditTransaction("7000000000000001"))))
        let bought = try await manager.buy(productID: StoreFixture.credits)
        #expect(bought == .handled(.completed(PurchaseReceipt(kind: .creditPackage, creditsGranted: 500))))
        #expect(storeKit.finished == ["7000000000000001"])

        // The app dies between the report and the finish: redelivered at next launch, credited once.
        storeKit.script(StoreFixture.credits, .success(Self.transaction("7000000000000002", StoreFixture.credits, try store.creditTransaction("7000000000000002"))))
        storeKit.failNextFinish(SimulatedCrash())
        guard case .handled(.willRetry) = try await manager.buy(productID: StoreFixture.credits) else { Issue.record("finished after a crash"); return }
        #expect(storeKit.finished == ["7000000000000001"] && storeKit.pending.count == 1)
        await manager.stop()
        let relaunched = PurchaseManager(store: storeKit, backend: DatacovePurchaseBackend(auth: alice), now: { [clock = store.clock] in clock.now },
                                         confirmTransfer: { prompt.ask($0) })
        await relaunched.start()
        #expect(storeKit.finished == ["7000000000000001", "7000000000000002"] && storeKit.pending.isEmpty)
        #expect(try await alice.profile().wallet["WALLET"] == 1000)

        // Unverified: never reported, never finished.
        let forged = StoreVerificationResult.unverified(
            StoreTransaction(id: "7000000000000003", originalID: "7000000000000003", productID: StoreFixture.credits, productType: .consumable,
                             jwsRepresentation: try store.creditTransaction("7000000000000003"), appAccountToken: nil), reason: "bad signature")
        storeKit.script(StoreFixture.credits, .success(forged))
        #expect(try await relaunched.buy(productID: StoreFixture.credits) == .handled(.ignoredUnverified))
        #expect(try await alice.profile().wallet["WALLET"] == 1000 && !storeKit.finished.contains("7000000000000003"))

        // A plan approved later (Ask to Buy) arrives through updates; the entitlement is then cached.
        storeKit.script(StoreFixture.monthly, .pending)
        #expect(try await relaunched.buy(productID: StoreFixture.monthly) == .pending)
        storeKit.deliverUpdate(Self.transaction("7000000000000010", StoreFixture.monthly, try store.planTransaction("7000000000000010", original: "7000000000000010")))
        await storeKit.waitUntilFinished("7000000000000010")
        let snapshot = try await relaunched.refreshEntitlement()
        #expect(snapshot.canExecuteGatedWorkflow && snapshot.entitlementStatus == "active" && snapshot.plans.map(\.platformProductId) == [StoreFixture.monthly])
        #expect(await relaunched.canUseGatedFeatures())
        // The cache holds offline for three days at most, and never past the period's end in server time.
        store.clock.advance(by: 2 * 86_400)
        #expect(await relaunched.canUseGatedFeatures())
        store.clock.advance(by: 2 * 86_400)
        #expect(await relaunched.canUseGatedFeatures() == false)

        // Another account on the same Apple ID: the move is asked first, declined, then accepted.
        store.clock.set(store.clock.now.addingTimeInterval(-4 * 86_400))
        let bob = try await Self.auth(store, phone: "+14165550182")
        storeKit.setCurrentEntitlements([Self.transaction("7000000000000010", StoreFixture.monthly, try store.planTransaction("7000000000000010", original: "7000000000000010"))])
        let declining = PurchaseManager(store: storeKit, backend: DatacovePurchaseBackend(auth: bob), confirmTransfer: { prompt.ask($0) })
        let declined = await declining.linkCurrentEntitlements()
        guard case .refused(409, "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT", _) = declined.first else { Issue.record("\(declined)"); return }
        #expect(prompt.asked.count == 1)
        let accepting = TransferPrompt([true])
        let moving = PurchaseManager(store: storeKit, backend: DatacovePurchaseBackend(auth: bob), confirmTransfer: { accepting.ask($0) })
        guard case .completed(let receipt) = await moving.linkCurrentEntitlements().first else { Issue.record("not moved"); return }
        #expect(receipt.transferred && receipt.entitlementStatus == "active" && accepting.asked.count == 1)

        // Offline: nothing is finished.
        storeKit.script(StoreFixture.credits, .success(Self.transaction("7000000000000020", StoreFixture.credits, try store.creditTransaction("7000000000000020"))))
        await store.stop()
        guard case .handled(.willRetry) = try await moving.buy(productID: StoreFixture.credits) else { Issue.record("finished while offline"); return }
        #expect(!storeKit.finished.contains("7000000000000020"))
    }

    @Test(arguments: TestDatabaseKind.available)
    func subscriptionFlowFinishingRules(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind) { $0.storeClientRequestsPerMinute = 6 }
        let serverKey = try await store.live.app.directory.issueKey(tenantID: store.live.credentials.tenantId, label: "backend").secret
        func issue(_ customer: String) async throws -> SubscriptionFlowPurchaseBackend.Pair {
            let reply = try await SubscriptionFlowTests.call(store, "POST", "/account-tokens", ["customer_id": customer], headers: ["Authorization": "Bearer \(serverKey)"])
            let data = try #require(reply.json["data"] as? [String: Any])
            return .init(accountToken: data["account_token"] as! String, clientSecret: data["client_secret"] as! String)
        }
        let current = try await issue("cus-sdk")
        // The app starts with a stale secret: the 401 makes it fetch the current pair once.
        let stale = SubscriptionFlowPurchaseBackend.Pair(accountToken: current.accountToken, clientSecret: "stale")
        let backend = SubscriptionFlowPurchaseBackend(baseURL: store.live.baseURL) { refresh in refresh ? current : stale }
        let storeKit = ScriptedStoreKit()
        let manager = PurchaseManager(store: storeKit, backend: backend, confirmTransfer: { _ in false })
        let token = try #require(UUID(uuidString: current.accountToken))
        let signed = try store.planTransaction("7100000000000001", original: "7100000000000001", extra: ["appAccountToken": current.accountToken])
        storeKit.script(StoreFixture.monthly, .success(Self.transaction("7100000000000001", StoreFixture.monthly, signed, token: token)))
        guard case .handled(.completed(let receipt)) = try await manager.buy(productID: StoreFixture.monthly) else { Issue.record("not linked"); return }
        #expect(receipt.kind == .linked && !receipt.sandbox && storeKit.finished == ["7100000000000001"])
        #expect(storeKit.purchaseTokens.last == token)
        let snapshot = try await manager.refreshEntitlement()
        #expect(snapshot.canExecuteGatedWorkflow && snapshot.validUntil != nil)

        // Another customer's purchase: refused for good (409), finished so it is not redelivered.
        let other = try await issue("cus-other")
        let foreign = try store.planTransaction("7100000000000002", original: "7100000000000002", extra: ["appAccountToken": other.accountToken])
        #expect(await manager.handle(Self.transaction("7100000000000002", StoreFixture.monthly, foreign))
            == .refused(status: 409, code: "PURCHASE_TAGGED_FOR_ANOTHER_ACCOUNT", message: "This purchase was made with another account token."))
        #expect(storeKit.finished.contains("7100000000000002"))

        // Over the limit: 429, left unfinished.
        var outcome = TransactionOutcome.ignoredUnverified
        for attempt in 0..<8 {
            let id = "71000000000001\(attempt)0"
            let untagged = try store.planTransaction(id, original: id)
            outcome = await manager.handle(Self.transaction(id, StoreFixture.monthly, untagged))
            if case .willRetry = outcome {
                #expect(!storeKit.finished.contains(id))
                break
            }
            // Untagged purchases are refused for good (claiming is off): 422, finished.
            #expect(outcome == .refused(status: 422, code: "PURCHASE_REFUSED", message: "This purchase cannot be linked to this account."))
        }
        guard case .willRetry(let reason) = outcome else { Issue.record("never limited"); return }
        #expect(reason == "HTTP 429")
        await store.stop()
    }
}
