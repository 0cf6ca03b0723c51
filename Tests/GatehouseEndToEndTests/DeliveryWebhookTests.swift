import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseDelivery
import GatehouseCrypto
import GatehouseHTTP
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// The webhook provider against a real receiver: signed JSON per message, and a refusal
/// failing the verification with `failed_to_deliver`.
@Suite struct DeliveryWebhookTests {
    final class Receiver: @unchecked Sendable {
        let server: Server
        private let lock = NSLock()
        private var bodies: [(valid: Bool, json: [String: Any])] = []
        var status = 202

        init(secret: String) throws {
            let router = Router()
            var configuration = ServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            server = Server(configuration: configuration, responder: Responder(router: router, errorLog: { _ in }))
            router.post("/messages", .inline { [unowned self] request, _ in
                let timestamp = request.headers["X-Gatehouse-Timestamp"] ?? ""
                let expected = WebhookDelivery.signature(secret: Array(secret.utf8), timestamp: timestamp, body: request.body)
                let valid = constantTimeEquals(Data(expected.utf8), Data((request.headers["X-Gatehouse-Signature"] ?? "").utf8))
                let json = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
                let status = self.lock.withLock { () -> Int in
                    self.bodies.append((valid, json))
                    return self.status
                }
                return .empty(status: valid ? status : 401)
            })
            try server.start()
        }

        var url: String { "http://127.0.0.1:\(server.port)/messages" }
        var received: [(valid: Bool, json: [String: Any])] { lock.withLock { bodies } }
        func fail() { lock.withLock { status = 503 } }
    }

    @Test func messagesArePostedSignedAndRefusalsFailTheVerification() async throws {
        let receiver = try Receiver(secret: "webhook-secret")
        defer { receiver.server.shutdown(grace: 1) }
        let harness = try await VerificationHarness.start(settings: ["minimumAuth": "basic", "cooldownSeconds": 0], inProcess: true) {
            $0.deliveryWebhookURL = receiver.url
            $0.deliveryWebhookSecret = "webhook-secret"
        }
        let start = #"{"data":{"destination":"+447400123456","delivery_method":"sms"}}"#
        let first = try await harness.call("POST", "/api/v1/verifications", body: start, authorization: harness.basic)
        #expect(first.status == 201)
        let id = try #require((first.json["data"] as? [String: Any])?["id"] as? String)
        try await harness.live.app.deliveries.drain()
        let message = try #require(receiver.received.first)
        #expect(message.valid)
        #expect(message.json["to"] as? String == "447400123456")
        #expect(message.json["channel"] as? String == "sms")
        #expect((message.json["body"] as? String)?.range(of: #"\d{6}"#, options: .regularExpression) != nil)
        #expect(Set(message.json.keys) == ["id", "tenantId", "channel", "to", "body", "createdAt"])
        // Nothing went to the outbox: the provider took it.
        let admin = harness.live.admin
        #expect(try await admin.send("GET", "/admin/v1/outbox?to=447400123456", as: AdminWire.List<AdminWire.OutboxMessage>.self).data.isEmpty)
        #expect(message.json["id"] as? String != id)

        receiver.fail()
        let second = try await harness.call("POST", "/api/v1/verifications", body: start, authorization: harness.basic)
        let secondID = try #require((second.json["data"] as? [String: Any])?["id"] as? String)
        try await harness.live.app.deliveries.drain()
        let read = try await harness.call("GET", "/api/v1/verifications/\(secondID)", authorization: harness.basic)
        let data = read.json["data"] as? [String: Any]
        let status = data?["status"] as? String ?? "pending"
        let outcome = data?["error_code"] as? String
        #expect(status == "failed")
        #expect(outcome == "failed_to_deliver")
        await harness.stop()
    }
}
