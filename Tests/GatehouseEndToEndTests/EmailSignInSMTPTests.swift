import Foundation
import GatehouseClientCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// Email sign-in with an SMTP server configured: the code travels by real SMTP (to
/// `SMTPTestServer` on loopback), and the development outbox never sees it.
@Suite struct EmailSignInSMTPTests {
    @Test func emailCodeIsMailedAndVerifies() async throws {
        let smtp = try await SMTPTestServer.start()
        let port = smtp.port
        let live: LiveServer
        do {
            live = try await LiveServer.start(.sqlite) {
                $0.smtpHost = "127.0.0.1"
                $0.smtpPort = port
                $0.smtpSecurity = .none
                $0.smtpFrom = "login@gatehouse.test"
            }
        } catch {
            await smtp.stop()
            throw error
        }
        do {
            try await check(live, smtp)
        } catch {
            await live.stop()
            await smtp.stop()
            throw error
        }
        await live.stop()
        await smtp.stop()
    }

    private func check(_ live: LiveServer, _ smtp: SMTPTestServer) async throws {
        let client = DatacoveClient(base: live.credentials.baseURL + "/api/", apiKey: live.credentials.apiKeys!["IOS"]!)
        let requested = try await client.call("POST", "auth/v1/email/request-otp", ["email": "jane@example.com"], key: true)
        #expect(requested.status == 200, "\(requested.json)")

        // The server's dispatcher returns once the SMTP server has taken the message, and
        // the test server stores each message before it says so.
        try await live.app.deliveries.drain()
        let mail = try #require(try smtp.messages().first)
        #expect(mail.mailFrom == "login@gatehouse.test")
        #expect(mail.rcptTos == ["jane@example.com"])
        #expect(mail.headers["From"] == "login@gatehouse.test")
        #expect(mail.headers["To"] == "jane@example.com")
        #expect(mail.headers["Subject"] == "Your sign-in code")
        let match = try #require(mail.body.range(of: #"\b\d{6}\b"#, options: .regularExpression))
        let code = String(mail.body[match])

        let verified = try await client.call("POST", "auth/v1/email/verify-otp", ["email": "jane@example.com", "otp": code], key: true)
        #expect(verified.status == 200, "\(verified.json)")
        #expect((verified.json["accessToken"] as? String)?.isEmpty == false)

        // With SMTP configured, email must not also land in the development outbox.
        let admin = APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
        let outbox = try await admin.send("GET", "/admin/v1/outbox?to=jane%40example.com", as: AdminWire.List<AdminWire.OutboxMessage>.self)
        #expect(outbox.data.isEmpty)
        #expect(try smtp.messages().count == 1)
    }
}
