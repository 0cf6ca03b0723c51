import Foundation
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// verify-purchase for credit packages (seed 000 §07), with transactions signed by a test
/// chain that a non-production tenant trusts.
@Suite struct VerifyPurchaseTests {
    static func transaction(_ id: String, product: String = "com.example.credits500", bundle: String = "com.example.app",
                            revoked: Bool = false) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": id, "productId": product, "bundleId": bundle, "environment": "Sandbox",
            "type": "Consumable", "quantity": 1, "inAppOwnershipType": "PURCHASED",
            "purchaseDate": Int64(Date().timeIntervalSince1970 * 1000), "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
        ]
        if revoked { payload["revocationDate"] = Int64(Date().timeIntervalSince1970 * 1000) }
        return payload
    }

    @Test(arguments: TestDatabaseKind.available)
    func creditPackagesAreGrantedOnceHoweverOftenReported(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)"
        let chain = try await AppleTestChain.generate()
        _ = try await client.call("PATCH", base + "/apple-config",
                                  ["bundleId": "com.example.app", "production": false, "extraTrustedRootPEM": chain.rootPEM], token: admin)
        _ = try await client.call("PUT", base + "/pricing-config",
                                  ["provider": "apple", "iapCreditPackages": [["platformProductId": "com.example.credits500", "credits": 500]]],
                                  token: admin)
        let alice = try #require(try await client.signIn(live, phone: "+14165550161")["accessToken"] as? String)
        let bob = try #require(try await client.signIn(live, phone: "+14165550162")["accessToken"] as? String)
        func report(_ token: String, _ signed: String, id: String = "2000000000000001", product: String = "com.example.credits500")
            async throws -> (status: Int, json: [String: Any], headers: [String: String])
        {
            try await client.call("POST", "purchases/v1/verify-purchase",
                                  ["platform": "apple", "platformProductId": product, "transactionId": id, "signedTransaction": signed], token: token)
        }
        let signed = try chain.sign(payload: Self.transaction("2000000000000001"))
        // Reported ten times at once and again later: granted once.
        let replies = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await report(alice, signed).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(replies.allSatisfy { $0 == 200 })
        let again = try await report(alice, signed)
        #expect(again.json["kind"] as? String == "credit_package" && again.json["creditsGranted"] as? Int == 500)
        let profile = try await client.call("GET", "users/v1/profile", token: alice)
        #expect((profile.json["wallet"] as? [String: Int])?["WALLET"] == 500)

        let linked = try await report(bob, signed)
        let error = try #require(linked.json["error"] as? [String: Any])
        #expect(linked.status == 409 && error["code"] as? String == "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT" && error["canTransfer"] as? Bool == false)

        func code(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> String? {
            (reply.json["error"] as? [String: Any])?["code"] as? String
        }
        var tampered = try chain.sign(payload: Self.transaction("2000000000000002"))
        tampered.removeLast(3)
        tampered += "AAA"
        #expect(code(try await report(alice, tampered, id: "2000000000000002")) == "PURCHASE_INVALID")
        let otherApp = try chain.sign(payload: Self.transaction("2000000000000003", bundle: "com.other.app"))
        #expect(code(try await report(alice, otherApp, id: "2000000000000003")) == "PURCHASE_INVALID")
        let stranger = try await AppleTestChain.generate()
        let untrusted = try stranger.sign(payload: Self.transaction("2000000000000004"))
        #expect(code(try await report(alice, untrusted, id: "2000000000000004")) == "PURCHASE_INVALID")
        let unknown = try chain.sign(payload: Self.transaction("2000000000000005", product: "com.example.unknown"))
        #expect(code(try await report(alice, unknown, id: "2000000000000005", product: "com.example.unknown")) == "PRODUCT_UNKNOWN")
        let refunded = try chain.sign(payload: Self.transaction("2000000000000006", revoked: true))
        #expect(code(try await report(alice, refunded, id: "2000000000000006")) == "PURCHASE_REVOKED")
        let mismatch = try chain.sign(payload: Self.transaction("2000000000000007"))
        #expect(code(try await report(alice, mismatch, id: "2000000000000008")) == "PURCHASE_INVALID")
        #expect((try await client.call("GET", "users/v1/profile", token: alice).json["wallet"] as? [String: Int])?["WALLET"] == 500)
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func xcodeStoreKitTransactionsOnAnOptedInTestTenant(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let client = DatacoveClient(live)
        let admin = live.credentials.adminToken
        let base = "tenants/v1/\(live.credentials.tenantId)"
        let xcode = try await XcodeTestCertificate.generate()
        let otherMac = try await XcodeTestCertificate.generate()
        let configured = try await client.call(
            "PATCH", base + "/apple-config", ["bundleId": "com.example.app", "production": false, "xcodeCertificatePEM": xcode.pem], token: admin)
        #expect(configured.status == 200, "\(configured.json)")
        _ = try await client.call("PUT", base + "/pricing-config",
                                  ["provider": "apple", "iapCreditPackages": [["platformProductId": "com.example.credits500", "credits": 500]]],
                                  token: admin)
        let alice = try #require(try await client.signIn(live, phone: "+14165550163")["accessToken"] as? String)
        // As Xcode writes it: environment Xcode, milliseconds with a fraction.
        func signed(_ id: String, by certificate: XcodeTestCertificate) throws -> String {
            let now = Date().timeIntervalSince1970 * 1000
            return try certificate.sign(payload: Data(#"""
                {"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":"com.example.credits500","bundleId":"com.example.app",
                 "environment":"Xcode","type":"Consumable","quantity":1,"purchaseDate":\#(now),"signedDate":\#(now + 0.485)}
                """#.utf8))
        }
        func report(_ signed: String, id: String) async throws -> (status: Int, json: [String: Any], headers: [String: String]) {
            try await client.call("POST", "purchases/v1/verify-purchase",
                                  ["platform": "apple", "platformProductId": "com.example.credits500", "transactionId": id, "signedTransaction": signed],
                                  token: alice)
        }
        let granted = try await report(try signed("2000000000000101", by: xcode), id: "2000000000000101")
        #expect(granted.status == 200 && granted.json["creditsGranted"] as? Int == 500, "\(granted.json)")
        let refused = try await report(try signed("2000000000000102", by: otherMac), id: "2000000000000102")
        #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "PURCHASE_INVALID")
        await live.stop()
    }
}
