import Foundation
import GatehouseAuth
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Signing out a device that is not there (already signed out, or never this account's) is a
/// 404, not the 401 `SESSION_NOT_FOUND` that tells the SDK its own session ended: the app stays
/// signed in. Found while fixturing the OpenAPI fuzz runs.
@Suite struct SessionSignOutTests {
    @Test(arguments: TestDatabaseKind.available)
    func signingOutAnUnknownSessionKeepsThisOne(_ kind: TestDatabaseKind) async throws {
        let setup = try await AuthSDKTests.setup(kind)
        let client = setup.client()
        try await setup.signIn(client, phone: "+14165550177")
        let stale = UUID().uuidString.lowercased()
        do {
            try await client.signOut(session: stale)
            Issue.record("an unknown session was signed out")
        } catch let error as AuthError {
            #expect(error == .api(status: 404, code: "NOT_FOUND", message: "No such session of this account.", retryAfter: nil))
        }
        #expect(try await client.profile().phone == "14165550177")
        let raw = try await setup.outbox.call("DELETE", "auth/v1/sessions/\(stale)", token: try await client.session.validAccessToken())
        #expect(raw.status == 404 && (raw.json["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        await setup.live.stop()
    }
}
