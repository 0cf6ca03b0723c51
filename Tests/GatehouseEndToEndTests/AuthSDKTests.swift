import Foundation
import GatehouseAuth
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The `GatehouseAuth` SDK against the live server, as an app would use it. Server and
/// SDK share one manual clock, so access tokens expire without waiting.
@Suite struct AuthSDKTests {
    struct Setup {
        let live: LiveServer
        let clock: ManualClock
        let outbox: DatacoveClient

        func client(_ store: any TokenStore = InMemoryTokenStore(), device: String = "iPhone", platform: String = "IOS") -> AuthClient {
            AuthClient(
                baseURL: live.baseURL.appendingPathComponent("api"), apiKey: live.credentials.apiKeys![platform]!, tokenStore: store,
                appVersion: "3.0.0", deviceName: device, now: { [clock] in clock.now })
        }

        /// Requests a code, reads it from the outbox and signs in; moves the clock past the
        /// 60 s resend window so the next sign-in to the same number can ask again.
        func signIn(_ client: AuthClient, phone: String) async throws {
            let digits = phone.filter(\.isNumber)
            let before = try await outbox.outboxMessages(live, digits).count
            try await client.requestMobileOtp(phone: phone)
            _ = try await client.verifyMobileOtp(phone: phone, otp: try await outbox.outboxCode(live, digits, after: before))
            clock.advance(by: 61)
        }

        func generations() async throws -> [Int] {
            try await live.app.environment.database.read { db in
                try db.query("SELECT generation FROM account_sessions ORDER BY created_at", []).map { try $0.get("generation", as: Int.self) }
            }
        }
    }

    static func setup(_ kind: TestDatabaseKind) async throws -> Setup {
        let clock = ManualClock(Date())
        let live = try await LiveServer.start(kind, clock: clock)
        return Setup(live: live, clock: clock, outbox: DatacoveClient(live))
    }

    @Test(arguments: TestDatabaseKind.available)
    func phoneAndEmailSignInActivateAndProfile(_ kind: TestDatabaseKind) async throws {
        let setup = try await Self.setup(kind)
        let phone = setup.client()
        try await phone.requestMobileOtp(phone: "+14165550199", name: "Jane Doe")
        do {
            try await phone.requestMobileOtp(phone: "+14165550199")
            Issue.record("a second code within 60 s was sent")
        } catch let error as AuthError {
            #expect(error.status == 429 && error.code == "RATE_LIMITED" && (error.retryAfter ?? 0) > 0)
        }
        _ = try await phone.verifyMobileOtp(phone: "+14165550199", otp: try await setup.outbox.outboxCode(setup.live, "14165550199"))
        #expect(try await phone.profile().status == "CREATED")
        _ = try await phone.activate()
        _ = try await phone.activate()
        let edited = try await phone.updateProfile(name: "Jane D.", timezone: "America/Toronto")
        #expect(edited.name == "Jane D." && edited.timezone == "America/Toronto" && edited.status == "ACTIVE" && edited.country == "CA")

        let email = setup.client(device: "Web", platform: "WEB")
        try await email.requestEmailOtp(email: "jane@example.com")
        _ = try await email.verifyEmailOtp(email: "jane@example.com", otp: try await setup.outbox.outboxCode(setup.live, "jane@example.com"))
        #expect(try await email.profile().email == "jane@example.com")
        await setup.live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func hundredCallsWithAnExpiredTokenRefreshOnce(_ kind: TestDatabaseKind) async throws {
        let setup = try await Self.setup(kind)
        let client = setup.client()
        try await setup.signIn(client, phone: "+14165550101")
        setup.clock.advance(by: 1800)
        try await withThrowingTaskGroup(of: Profile.self) { group in
            for _ in 0..<100 { group.addTask { try await client.profile() } }
            for try await profile in group { #expect(profile.phone == "14165550101") }
        }
        #expect(try await setup.generations() == [1])
        await setup.live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func twoProcessesSharingAFileStoreRefreshOnce(_ kind: TestDatabaseKind) async throws {
        let setup = try await Self.setup(kind)
        let file = URL(fileURLWithPath: NSTemporaryDirectory() + "gatehouse-tokens-" + UUID().uuidString + ".json")
        let app = setup.client(FileTokenStore(url: file))
        let widget = setup.client(FileTokenStore(url: file))
        try await setup.signIn(app, phone: "+14165550102")
        setup.clock.advance(by: 1800)
        // Past the 30 s grace window too: only the file lock can keep them from both refreshing.
        setup.clock.advance(by: 60)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 { group.addTask { _ = try await (index % 2 == 0 ? app : widget).profile() } }
            try await group.waitForAll()
        }
        #expect(try await setup.generations() == [1])
        await setup.live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aReplayedRefreshTokenEndsTheSession(_ kind: TestDatabaseKind) async throws {
        let setup = try await Self.setup(kind)
        let store = InMemoryTokenStore()
        let client = setup.client(store)
        try await setup.signIn(client, phone: "+14165550103")
        let stolen = try #require(try store.read()).refreshToken
        setup.clock.advance(by: 1800)
        _ = try await client.profile()  // refreshes, then uses the new access token
        setup.clock.advance(by: 31)
        let replay = try await setup.outbox.call("POST", "auth/v1/refresh", ["refreshToken": stolen])
        #expect(replay.status == 401 && (replay.json["error"] as? [String: Any])?["code"] as? String == "TOKEN_REUSED")
        do {
            _ = try await client.profile()
            Issue.record("the session survived a replayed refresh token")
        } catch AuthError.signedOut(let code) {
            #expect(code == "TOKEN_REUSED")
        }
        #expect(try store.read() == nil)
        await setup.live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func devicesEvictionSignOutAndDeletion(_ kind: TestDatabaseKind) async throws {
        let setup = try await Self.setup(kind)
        var devices: [AuthClient] = []
        for index in 0..<6 {
            let device = setup.client(device: "device \(index)")
            try await setup.signIn(device, phone: "+14165550104")
            devices.append(device)
        }
        do {
            _ = try await devices[0].profile()
            Issue.record("the first device was not evicted")
        } catch AuthError.signedOut(let code) {
            #expect(code == "SESSION_EVICTED")
        }
        let sessions = try await devices[5].sessions()
        #expect(sessions.count == 5)
        let second = try #require(sessions.first { $0.deviceName == "device 1" })
        try await devices[5].signOut(session: second.id)
        do {
            _ = try await devices[1].profile()
            Issue.record("a signed-out device still worked")
        } catch AuthError.signedOut(let code) {
            #expect(code == "SESSION_NOT_FOUND")
        }
        _ = try await devices[5].updateProfile(name: "Old Name")
        try await devices[5].deleteAccount()
        let again = setup.client()
        try await setup.signIn(again, phone: "+14165550104")
        let fresh = try await again.profile()
        #expect(fresh.name == nil && fresh.status == "CREATED")
        await setup.live.stop()
    }
}
