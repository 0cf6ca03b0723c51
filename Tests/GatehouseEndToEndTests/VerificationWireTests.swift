import Foundation
import Foundation
import GatehouseCrypto
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseVerificationEngine
import Testing

/// The DIDWW dialect over the wire, checked against the literal JSON of the OpenAPI file and
/// the notes, with requests the SDK would never send.
@Suite struct VerificationWireTests {
    @Test(arguments: TestDatabaseKind.available)
    func openAPIExamplesStartAndAnswerInTheDocumentedShape(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"], inProcess: true)
        // The spec's two request examples, byte for byte.
        let sms = try await harness.call(
            "POST", "/api/v1/verifications",
            body: #"{"data":{"destination":"+4915112345678","delivery_method":"sms","sms":{"languages":["de-DE","en-US"],"app_hash":"A1b2C3d4E5f"}}}"#,
            authorization: harness.basic)
        #expect(sms.status == 201)
        let data = try #require(sms.json["data"] as? [String: Any])
        #expect(Set(data.keys) == ["id", "destination", "delivery_method", "fee", "status", "error_code", "error_detail", "expires_at", "sms"])
        #expect(data["destination"] as? String == "4915112345678")
        #expect(data["delivery_method"] as? String == "sms")
        #expect(data["fee"] as? String == "0.05")
        #expect(data["status"] as? String == "pending")
        #expect(data["error_code"] is NSNull && data["error_detail"] is NSNull)
        let expires = try #require(data["expires_at"] as? String)
        #expect(expires.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        let block = try #require(data["sms"] as? [String: Any])
        #expect(block["language"] as? String == "de-DE")
        #expect(block["interception_timeout"] as? Int == 300)
        #expect(block["code_length"] as? Int == 6)
        #expect(block["app_hash"] as? String == "A1b2C3d4E5f")
        #expect((block["template"] as? String)?.components(separatedBy: "{{CODE}}").count == 2)
        let autofill = try #require(block["autofill"] as? [String: String])
        #expect(autofill == ["type": "app_hash", "value": "A1b2C3d4E5f"])
        let message = try await harness.code(for: "4915112345678")
        #expect(message.count == 6)

        let callout = try await harness.call(
            "POST", "/api/v1/verifications",
            body: #"{"data":{"destination":"+5511987654321","delivery_method":"callout","callout":{"languages":["pt-BR","pt-PT"]}}}"#,
            authorization: harness.basic)
        #expect(callout.status == 201)
        let calloutData = try #require(callout.json["data"] as? [String: Any])
        #expect(calloutData["sms"] == nil)
        let calloutBlock = try #require(calloutData["callout"] as? [String: Any])
        #expect(calloutBlock["language"] as? String == "pt-BR")
        #expect(calloutBlock["code_length"] as? Int == 6)
        await harness.stop()
    }

    @Test func errorEnvelopesCarryTheFixedTexts() async throws {
        // A small body limit: a body that fits in one write is read before the 413 comes back
        // (a large one races the early answer and the client sees a broken pipe).
        let harness = try await VerificationHarness.start(settings: ["minimumAuth": "basic", "cooldownSeconds": 60], inProcess: true) {
            $0.maxBodyBytes = 8192
        }
        func errors(_ reply: (status: Int, json: [String: Any], headers: [String: String])) -> [[String: String]] {
            (reply.json["errors"] as? [[String: String]]) ?? []
        }
        let noAuth = try await harness.call("POST", "/api/v1/verifications", body: "{}", authorization: nil)
        #expect(noAuth.status == 401 && errors(noAuth) == [["code": "unauthorized", "detail": "unauthorized"]])
        let tooWeak = try await harness.call("POST", "/api/v1/verifications", body: "{}", authorization: harness.publicAuth)
        #expect(tooWeak.status == 401)
        let missing = try await harness.call("POST", "/api/v1/verifications", body: #"{"data":"x"}"#, authorization: harness.basic)
        #expect(missing.status == 400)
        #expect(errors(missing) == [["code": "parameter_missing", "detail": "request body must contain a valid data object"]])
        let invalid = try await harness.call(
            "POST", "/api/v1/verifications", body: #"{"data":{"destination":"+371.12345678","delivery_method":"fax"}}"#,
            authorization: harness.basic)
        #expect(invalid.status == 422)
        #expect(errors(invalid) == [
            ["code": "destination_invalid", "detail": "destination is invalid"],
            ["code": "delivery_method_inclusion", "detail": "delivery method is not included in the list"],
        ])
        let notFound = try await harness.call("GET", "/api/v1/verifications/01a0435e-2b71-7762-b0c2-22fabc5ed19c", authorization: harness.basic)
        #expect(notFound.status == 404 && errors(notFound) == [["code": "not_found", "detail": "not found"]])
        let unrouted = try await harness.call("GET", "/api/v1/verifications/a/b/c", authorization: harness.basic)
        #expect(unrouted.status == 404 && errors(unrouted) == [["code": "not_found", "detail": "not found"]])
        let wrongMethod = try await harness.call("DELETE", "/api/v1/verifications/x", authorization: harness.basic)
        #expect(wrongMethod.status == 405 && errors(wrongMethod) == [["code": "validation_failed", "detail": "request is invalid"]])
        #expect(wrongMethod.headers["allow"] == "GET, HEAD, OPTIONS, PATCH, PUT")
        let huge = try await harness.call(
            "POST", "/api/v1/verifications", body: String(repeating: " ", count: 9000), authorization: harness.basic)
        #expect(huge.status == 413 && errors(huge) == [["code": "validation_failed", "detail": "request is invalid"]])
        let start = #"{"data":{"destination":"+447400123456","delivery_method":"sms"}}"#
        #expect(try await harness.call("POST", "/api/v1/verifications", body: start, authorization: harness.basic).status == 201)
        let cooldown = try await harness.call("POST", "/api/v1/verifications", body: start, authorization: harness.basic)
        #expect(cooldown.status == 429)
        #expect(errors(cooldown) == [["code": "destination_in_cooldown", "detail": "verification for this destination was requested too recently"]])
        let retryAfter = try #require(cooldown.headers["retry-after"].flatMap(Int.init))
        #expect((1...60).contains(retryAfter))
        let customTooLong = try await harness.call(
            "POST", "/api/v1/verifications",
            body: #"{"data":{"destination":"+447400123457","delivery_method":"sms","custom":""# + String(repeating: "c", count: 4097) + #""}}"#,
            authorization: harness.basic)
        #expect(customTooLong.status == 422 && errors(customTooLong) == [["code": "custom_too_long", "detail": "custom is too long"]])
        try await harness.patchApplication(["smsFee": "1000.00"])
        let broke = try await harness.call(
            "POST", "/api/v1/verifications", body: #"{"data":{"destination":"+447400123458","delivery_method":"sms"}}"#,
            authorization: harness.basic)
        #expect(broke.status == 402 && errors(broke) == [["code": "balance_insufficient", "detail": "insufficient balance"]])
        await harness.stop()
    }

    @Test func signedApplicationModeAcceptsOnlyExactSignatures() async throws {
        let harness = try await VerificationHarness.start(settings: ["minimumAuth": "application"], inProcess: true)
        let key = try #require(RequestSigner.key(fromSecret: harness.secret))
        func signed(_ method: String, _ path: String, _ body: String?, timestamp: Int64 = Int64(Date().timeIntervalSince1970)) -> [String: String] {
            let stamp = String(timestamp)
            let signature = RequestSigner.sign(
                key: key, method: method, body: body.map { Array($0.utf8) }, contentType: body == nil ? nil : "application/json",
                timestamp: stamp, path: path)
            return ["Authorization": "Application \(harness.app.appKey):\(signature)", "x-timestamp": stamp]
        }
        let body = #"{"data":{"destination":"+447400123456","delivery_method":"sms"}}"#
        let headers = signed("POST", "/api/v1/verifications", body)
        let created = try await harness.call("POST", "/api/v1/verifications", body: body, authorization: headers["Authorization"], headers: headers)
        #expect(created.status == 201)
        let id = try #require((created.json["data"] as? [String: Any])?["id"] as? String)
        let path = "/api/v1/verifications/\(id)"
        let read = signed("GET", path, nil)
        #expect(try await harness.call("GET", path, authorization: read["Authorization"], headers: read).status == 200)
        // Replayed against another path, stale, or with a public header: 401.
        #expect(try await harness.call("GET", path + "0", authorization: read["Authorization"], headers: read).status == 401)
        let stale = signed("GET", path, nil, timestamp: Int64(Date().timeIntervalSince1970) - 301)
        #expect(try await harness.call("GET", path, authorization: stale["Authorization"], headers: stale).status == 401)
        #expect(try await harness.call("GET", path, authorization: harness.publicAuth).status == 401)
        // The path is signed as sent: percent-encoding kept.
        let odd = "/api/v1/verifications/not%20a%2Fuuid"
        let oddHeaders = signed("GET", odd, nil)
        let oddReply = try await harness.call("GET", odd, authorization: oddHeaders["Authorization"], headers: oddHeaders)
        #expect(oddReply.status == 404)
        await harness.stop()
    }

    @Test func requestCallbackDecidesPublicStarts() async throws {
        let receiver = try CallbackReceiver()
        defer { receiver.stop() }
        let harness = try await VerificationHarness.start(settings: ["callbackUrl": receiver.url, "cooldownSeconds": 0], inProcess: true) {
            $0.verificationCallbackTimeout = 1
        }
        receiver.secret = harness.secret
        receiver.appKey = harness.app.appKey
        func start(_ number: String, custom: String? = nil) async throws -> [String: Any] {
            let customField = custom.map { #","custom":"\#($0)""# } ?? ""
            let reply = try await harness.call(
                "POST", "/api/v1/verifications",
                body: #"{"data":{"destination":"\#(number)","delivery_method":"sms"\#(customField)}}"#, authorization: harness.publicAuth)
            #expect(reply.status == 201)
            return try #require(reply.json["data"] as? [String: Any])
        }
        let allowed = try await start("+447400123456", custom: "signup-flow-b")
        #expect(allowed["status"] as? String == "pending")
        #expect(allowed["custom"] == nil)
        let first = try #require(receiver.received.first)
        #expect(first.signatureValid)
        #expect(first.body["event"] as? String == "verification_request")
        let sent = try #require(first.body["data"] as? [String: String])
        #expect(sent == ["id": allowed["id"] as! String, "destination": "447400123456", "delivery_method": "sms", "custom": "signup-flow-b"])

        let cases: [(Int, String, String)] = [
            (200, #"{"action":"deny"}"#, "denied_by_callback"),
            (500, #"{"action":"allow"}"#, "denied_invalid_callback_response"),
            (200, "not json", "denied_invalid_callback_response"),
            (200, #"{"action":"later"}"#, "denied_invalid_callback_response"),
            (200, #"{"action":"allow","x":""# + String(repeating: "x", count: 8200) + #""}"#, "denied_invalid_callback_response"),
        ]
        for (status, body, outcome) in cases {
            receiver.answer(status, body)
            let denied = try await start("+447400123457")
            #expect(denied["status"] as? String == "denied")
            #expect(denied["error_code"] as? String == outcome)
        }
        // A denied start superseded nothing: the allowed one is still live.
        let allowedID = allowed["id"] as! String
        let still = try await harness.call("GET", "/api/v1/verifications/\(allowedID)", authorization: harness.publicAuth)
        #expect((still.json["data"] as? [String: Any])?["status"] as? String == "pending")

        try await harness.patchApplication(["callbackUrl": NSNull()])
        let noURL = try await start("+447400123458")
        #expect(noURL["error_code"] as? String == "denied_missing_callback_url")
        #expect(noURL["error_detail"] as? String == "application has no callback_url")
        await harness.stop()
    }
}
