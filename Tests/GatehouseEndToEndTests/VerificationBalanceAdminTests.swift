import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// `POST /admin/v1/tenants/:id/verification-balance` keeps the balance in range: a credit
/// that would overflow is a 400 `amount_out_of_range`, never a 500.
@Suite struct VerificationBalanceAdminTests {
    @Test(arguments: TestDatabaseKind.available)
    func theTenthLargestCreditIsRefusedWithItsOwnCode(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        let admin = live.admin
        let path = "/admin/v1/tenants/\(live.credentials.tenantId)/verification-balance"
        let before = try await admin.send("GET", path, as: AdminWire.Balance.self).balance
        var last = before
        for _ in 0..<9 {
            last = try await admin.send("POST", path, body: RawJSON(Data(#"{"amount":"999999999999.999999"}"#.utf8)), as: AdminWire.Balance.self).balance
        }
        #expect(last != before)
        for amount in ["999999999999.999999", "500000000000"] {
            do {
                try await admin.sendRaw("POST", path, body: Data(#"{"amount":"\#(amount)"}"#.utf8))
                Issue.record("a credit of \(amount) past the top was accepted")
            } catch let GatehouseClientError.api(status, code, _, _) {
                #expect(status == 400 && code.rawValue == "amount_out_of_range")
            }
        }
        #expect(try await admin.send("GET", path, as: AdminWire.Balance.self).balance == last)
        // A debit brings it back; a malformed amount is still the generic 400.
        let debited = try await admin.send("POST", path, body: RawJSON(Data(#"{"amount":"-999999999999.999999"}"#.utf8)), as: AdminWire.Balance.self)
        #expect(debited.balance != last)
        do {
            try await admin.sendRaw("POST", path, body: Data(#"{"amount":"1e30"}"#.utf8))
            Issue.record("1e30 was accepted")
        } catch let error as GatehouseClientError { #expect(error.code?.rawValue == "invalid_argument") }
        await live.stop()
    }
}
