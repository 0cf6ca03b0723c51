import Foundation
import GatehouseClientCore
import Testing
@testable import GatehousePurchases
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What each backend puts on the wire, and how it reads the answers, without a server.
@Suite struct BackendRequestTests {
    /// Records requests and answers each from a handler.
    final class Recorder: Transport, @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [URLRequest] = []
        let answer: @Sendable (URLRequest) -> (Int, String, [String: String])
        init(_ answer: @escaping @Sendable (URLRequest) -> (Int, String, [String: String])) { self.answer = answer }
        var requests: [URLRequest] { lock.withLock { recorded } }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            lock.withLock { recorded.append(request) }
            let (status, body, headers) = answer(request)
            return (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }

    static let transaction = StoreTransaction(
        id: "2000000123456789", originalID: "2000000123456789", productID: "com.example.monthly", productType: .autoRenewable,
        jwsRepresentation: "eyJ.x.y", appAccountToken: nil)

    static func json(_ data: Data?) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: try #require(data)) }

    @Test func subscriptionFlowSendsThePairAndFetchesItOnceAfterA401() async throws {
        let transport = Recorder { request in
            request.value(forHTTPHeaderField: "X-SF-Client-Secret") == "current"
                ? (200, #"{"status":true,"data":{"linked":true,"sandbox":false,"entitlements":[]}}"#, [:])
                : (401, #"{"status":false,"code":"UNAUTHENTICATED","message":"no"}"#, [:])
        }
        let backend = SubscriptionFlowPurchaseBackend(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport) { refresh in
            .init(accountToken: "a1b2", clientSecret: refresh ? "current" : "stale")
        }
        #expect(await backend.report(Self.transaction, transferToCurrentAccount: false) == .accepted(PurchaseReceipt(kind: .linked)))
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-SF-Client-Secret") } == ["stale", "current"])
        let request = try #require(transport.requests.last)
        #expect(request.httpMethod == "POST" && request.url?.absoluteString == "http://127.0.0.1:8080/api/v1/mobile-stores/client/purchases")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-SF-Account-Token") == "a1b2")
        #expect(try Self.json(request.httpBody) == Self.json(Data(#"{"store":"apple","signed_transaction":"eyJ.x.y"}"#.utf8)))
    }

    @Test func subscriptionFlowRefusalsAndEntitlements() async throws {
        let transport = Recorder { request in
            if request.httpMethod == "POST" {
                return (409, #"{"status":false,"code":"PURCHASE_TAGGED_FOR_ANOTHER_ACCOUNT","message":"m"}"#, [:])
            }
            return (200, #"""
                {"status":true,"data":[{"key":"pro","name":"Pro","source":"AppStore","subscription_id":"s","expires_at":"2026-11-28T09:00:00+00:00",
                 "grants":[{"source":"AppStore","subscription_id":"s","status":"Active","expires_at":"2026-11-28T09:00:00+00:00"}]}]}
                """#, ["Date": "Tue, 01 Dec 2026 10:00:00 GMT"])
        }
        let backend = SubscriptionFlowPurchaseBackend(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport) { _ in
            .init(accountToken: "a1b2", clientSecret: "s")
        }
        #expect(await backend.report(Self.transaction, transferToCurrentAccount: false)
            == .refused(status: 409, code: .purchaseTaggedForAnotherAccount, message: "m"))
        let snapshot = try await backend.entitlement()
        #expect(snapshot.canExecuteGatedWorkflow && snapshot.validUntil == WireDate.parse("2026-11-28T09:00:00Z"))
        #expect(snapshot.serverTime == WireDate.parse("2026-12-01T10:00:00Z"))
        #expect(transport.requests.last?.httpBody == nil && transport.requests.last?.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func datacoveSendsRelativeRequestsThroughTheSession() async throws {
        let sent = Recorder { request in
            request.url?.relativeString == "purchases/v1/entitlement"
                ? (403, #"{"statusCode":403,"error":{"statusCode":403,"error":"Forbidden","message":"Not yet.","code":"STORE_NOT_CONFIGURED"}}"#,
                   ["Retry-After": "3"])
                : (200, #"{"kind":"credit_package","creditsGranted":500}"#, [:])
        }
        let backend = DatacovePurchaseBackend { request in try await sent.send(request) }
        #expect(await backend.report(Self.transaction, transferToCurrentAccount: true)
            == .accepted(PurchaseReceipt(kind: .creditPackage, creditsGranted: 500)))
        let report = try #require(sent.requests.first)
        #expect(report.httpMethod == "POST" && report.url?.relativeString == "purchases/v1/verify-purchase")
        #expect(try Self.json(report.httpBody) == Self.json(Data(#"""
            {"platform":"apple","platformProductId":"com.example.monthly","transactionId":"2000000123456789",
             "signedTransaction":"eyJ.x.y","transferToCurrentAccount":true}
            """#.utf8)))
        await #expect(throws: PurchasesError.api(status: 403, code: .storeNotConfigured, message: "Not yet.", retryAfter: 3)) {
            try await backend.entitlement()
        }
        #expect(sent.requests.last?.httpMethod == "GET" && sent.requests.last?.httpBody == nil)
    }

    @Test func datacoveLeavesOutTheOptionalFields() async throws {
        let sent = Recorder { _ in (200, #"{"kind":"credit_package","creditsGranted":5}"#, [:]) }
        let backend = DatacovePurchaseBackend { request in try await sent.send(request) }
        let unsigned = StoreTransaction(id: "1", originalID: "1", productID: "p", productType: .consumable, jwsRepresentation: "", appAccountToken: nil)
        _ = await backend.report(unsigned, transferToCurrentAccount: false)
        #expect(try Self.json(sent.requests.first?.httpBody) == Self.json(Data(#"{"platform":"apple","platformProductId":"p","transactionId":"1"}"#.utf8)))
    }
}
