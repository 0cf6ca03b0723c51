import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseCrypto
import GatehouseTesting
import Testing
import GatehouseFormats

/// The status-callback verifiers: Twilio's `X-Twilio-Signature` against Twilio's documented
/// example, and each provider's signed callbacks as `ProviderAPIs` computes them (in Python,
/// independently of the Swift code), accepted as sent and refused once tampered with.
@Suite struct DeliveryCallbackTests {
    static let twilioURL = "https://gatehouse.example/api/delivery/twilio/status?tenant=t1"
    static let vonageURL = "https://gatehouse.example/api/delivery/vonage/status"

    // MARK: - Twilio

    /// Twilio's security documentation: auth token `12345`, this URL and these parameters.
    static let documentedURL = "https://mycompany.com/myapp.php?foo=1&bar=2"
    static let documentedParameters: [(name: String, value: String)] = [
        ("CallSid", "CA1234567890ABCDE"), ("Caller", "+14158675309"), ("Digits", "1234"), ("From", "+14158675309"), ("To", "+18005551212"),
    ]

    @Test func twilioSignatureMatchesTheDocumentedExample() {
        // The documented algorithm by hand: the URL, then each name and value in name order.
        let signed = Self.documentedURL + "CallSid" + "CA1234567890ABCDE" + "Caller" + "+14158675309" + "Digits" + "1234"
            + "From" + "+14158675309" + "To" + "+18005551212"
        #expect(Base64.encode(HMAC.sha1(key: Array("12345".utf8), message: Array(signed.utf8))) == "RSOYDt4T1cUTdK1PDd93/VVr8B8=")
        let shuffled = Array(Self.documentedParameters.reversed())
        #expect(TwilioStatusCallback.signature(url: Self.documentedURL, parameters: shuffled, authToken: "12345") == "RSOYDt4T1cUTdK1PDd93/VVr8B8=")
        // Twilio's libraries' vector for a repeated name: values sorted, a duplicate counted once.
        let repeated: [(name: String, value: String)] = [("Sid", "CA123"), ("SidAccount", "AC123"), ("Digits", "5678"), ("Digits", "1234"), ("Digits", "1234")]
        #expect(TwilioStatusCallback.signature(url: Self.documentedURL, parameters: repeated, authToken: "12345") == "IK+Dwps556ElfBT0I3Rgjkr1wJU=")
    }

    /// The refusal `TwilioStatusCallback.verify` throws for the documented example with one part changed.
    static func refusal(
        url: String = documentedURL, parameters: [(name: String, value: String)] = documentedParameters,
        signature: String? = "RSOYDt4T1cUTdK1PDd93/VVr8B8=", token: String = "12345"
    ) -> DeliveryCallbackRefusal? {
        do {
            _ = try TwilioStatusCallback.verify(url: url, parameters: parameters, signature: signature, authToken: token)
            return nil
        } catch {
            return error as? DeliveryCallbackRefusal
        }
    }

    @Test func twilioDocumentedExampleVerifiesAndTamperingIsRefused() {
        // Signed correctly (also with the default port spelled out), but keypad input is no status report.
        let notAStatus = DeliveryCallbackRefusal.malformed("neither MessageSid and MessageStatus nor CallSid and CallStatus")
        #expect(Self.refusal() == notAStatus)
        #expect(Self.refusal(url: "https://mycompany.com:443/myapp.php?foo=1&bar=2") == notAStatus)
        #expect(Self.refusal(token: "12346") == .badSignature)
        #expect(Self.refusal(url: Self.documentedURL + "&baz=3") == .badSignature)
        #expect(Self.refusal(parameters: Self.documentedParameters.map { $0.name == "Digits" ? ("Digits", "9999") : $0 }) == .badSignature)
        #expect(Self.refusal(parameters: Self.documentedParameters + [("Extra", "1")]) == .badSignature)
        #expect(Self.refusal(signature: nil) == .unsigned)
        #expect(Self.refusal(signature: "RSOYDt4T1cUTdK1PDd93/VVr8B8") == .badSignature)
    }

    static func twilio(_ callback: ProviderAPIs.SignedCallback, url: String? = nil, body: String? = nil, token: String = ProviderAPIs.twilioAuthToken) throws -> DeliveryStatusReport? {
        try TwilioStatusCallback.verify(
            url: url ?? callback.url, body: Data((body ?? callback.body).utf8), signature: callback.headers["X-Twilio-Signature"], authToken: token)
    }

    @Test func twilioSignedCallbacksReportTheirStatus() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let sid = "SM" + String(repeating: "a1", count: 16)
            let delivered = try await apis.statusCallback(kind: "twilio-message", url: Self.twilioURL, id: sid, status: "delivered")
            #expect(try Self.twilio(delivered) == DeliveryStatusReport(provider: "twilio", messageId: sid, delivered: true, detail: "delivered"))
            let undelivered = try await apis.statusCallback(kind: "twilio-message", url: Self.twilioURL, id: sid, status: "undelivered", extra: ["error_code": "30003"])
            #expect(try Self.twilio(undelivered) == DeliveryStatusReport(provider: "twilio", messageId: sid, delivered: false, detail: "undelivered, error 30003"))
            let sent = try await apis.statusCallback(kind: "twilio-message", url: Self.twilioURL, id: sid, status: "sent")
            #expect(try Self.twilio(sent) == nil)

            let call = "CA" + String(repeating: "b2", count: 16)
            let completed = try await apis.statusCallback(kind: "twilio-call", url: Self.twilioURL, id: call, status: "completed")
            #expect(try Self.twilio(completed)?.delivered == true)
            let noAnswer = try await apis.statusCallback(kind: "twilio-call", url: Self.twilioURL, id: call, status: "no-answer")
            #expect(try Self.twilio(noAnswer) == DeliveryStatusReport(provider: "twilio", messageId: call, delivered: false, detail: "no-answer"))
        }
    }

    @Test func twilioTamperedCallbacksAreRefused() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let callback = try await apis.statusCallback(kind: "twilio-message", url: Self.twilioURL, id: "SM1", status: "undelivered")
            let forged = callback.body.replacingOccurrences(of: "undelivered", with: "delivered")
            #expect(forged != callback.body)
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.twilio(callback, body: forged) }
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.twilio(callback, url: Self.twilioURL.replacingOccurrences(of: "t1", with: "t2")) }
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.twilio(callback, token: "another-token") }
            let otherToken = try await apis.statusCallback(kind: "twilio-message", url: Self.twilioURL, id: "SM1", status: "delivered", extra: ["secret": "x"])
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.twilio(otherToken) }
            #expect(throws: DeliveryCallbackRefusal.unsigned) {
                try TwilioStatusCallback.verify(url: Self.twilioURL, body: Data(callback.body.utf8), signature: nil, authToken: ProviderAPIs.twilioAuthToken)
            }
        }
    }

    // MARK: - Vonage

    static func vonage(_ callback: ProviderAPIs.SignedCallback, body: String? = nil, authorization: String?? = nil, now: Date = Date(),
                       applicationId: String? = nil) throws -> DeliveryStatusReport? {
        try VonageSignedWebhook.verify(
            authorization: authorization ?? callback.headers["Authorization"], body: Data((body ?? callback.body).utf8),
            signatureSecret: ProviderAPIs.vonageSignatureSecret, now: now, applicationId: applicationId)
    }

    @Test func vonageSignedWebhooksReportTheirStatus() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let call = UUID().uuidString.lowercased()
            let completed = try await apis.statusCallback(kind: "vonage-call", url: Self.vonageURL, id: call, status: "completed")
            #expect(try Self.vonage(completed, applicationId: ProviderAPIs.vonageApplicationId)
                == DeliveryStatusReport(provider: "vonage", messageId: call, delivered: true, detail: "completed"))
            let busy = try await apis.statusCallback(kind: "vonage-call", url: Self.vonageURL, id: call, status: "busy")
            #expect(try Self.vonage(busy)?.delivered == false)
            let ringing = try await apis.statusCallback(kind: "vonage-call", url: Self.vonageURL, id: call, status: "ringing")
            #expect(try Self.vonage(ringing) == nil)
            let expired = try await apis.statusCallback(kind: "vonage-sms-jwt", url: Self.vonageURL, id: "0A0000001", status: "expired", extra: ["error_code": "5"])
            #expect(try Self.vonage(expired) == DeliveryStatusReport(provider: "vonage", messageId: "0A0000001", delivered: false, detail: "expired, 5"))
        }
    }

    @Test func vonageTamperedStaleOrUnsignedWebhooksAreRefused() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            let callback = try await apis.statusCallback(kind: "vonage-call", url: Self.vonageURL, id: "c1", status: "failed")
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.vonage(callback, body: callback.body.replacingOccurrences(of: "failed", with: "completed")) }
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.vonage(callback, applicationId: "another-application") }
            #expect(throws: DeliveryCallbackRefusal.stale) { try Self.vonage(callback, now: Date().addingTimeInterval(3600)) }
            #expect(throws: DeliveryCallbackRefusal.unsigned) { try Self.vonage(callback, authorization: .some(nil)) }
            let otherSecret = try await apis.statusCallback(kind: "vonage-call", url: Self.vonageURL, id: "c1", status: "completed", extra: ["secret": "x"])
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.vonage(otherSecret) }
            // The same claims under `alg: none`, signature dropped.
            let token = try #require(callback.headers["Authorization"]?.dropFirst("Bearer ".count))
            let claims = token.split(separator: ".")[1]
            let unsigned = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + claims + "."
            #expect(throws: DeliveryCallbackRefusal.badSignature) { try Self.vonage(callback, authorization: "Bearer \(unsigned)") }
        }
    }

    @Test func vonageSMSSignatureMatchesTheSDKVector() {
        // The Vonage Python SDK's test: secret `secret`, method md5hash.
        let parameters: [(name: String, value: String)] = [("a", "1"), ("b", "2"), ("timestamp", "1461605396")]
        #expect(VonageSMSSignature.signature(parameters: parameters, signatureSecret: "secret", method: .md5Hash) == "6af838ef94998832dbfc29020b564830")
        #expect(MD5.hash(Array("&a=1&b=2&timestamp=1461605396secret".utf8)).hexString == "6af838ef94998832dbfc29020b564830")
    }

    @Test func vonageSMSSignedReceiptsVerifyAndTamperingIsRefused() async throws {
        try await DeliveryFixtures.withProviderAPIs { apis in
            for method in [VonageSMSSignature.Method.md5Hash, .hmacSHA256, .hmacSHA512] {
                let receipt = try await apis.statusCallback(kind: "vonage-sms-sig", url: Self.vonageURL, id: "0B00000002", status: "delivered", extra: ["method": method.rawValue])
                func verify(_ body: String, method: VonageSMSSignature.Method = method, now: Date = Date()) throws -> DeliveryStatusReport? {
                    try VonageSMSSignature.verify(body: Data(body.utf8), signatureSecret: ProviderAPIs.vonageSignatureSecret, method: method, now: now)
                }
                #expect(try verify(receipt.body) == DeliveryStatusReport(provider: "vonage", messageId: "0B00000002", delivered: true, detail: "delivered"))
                #expect(throws: DeliveryCallbackRefusal.badSignature) { try verify(receipt.body.replacingOccurrences(of: "status=delivered", with: "status=failed")) }
                #expect(throws: DeliveryCallbackRefusal.badSignature) { try verify(receipt.body, method: method == .md5Hash ? .hmacSHA256 : .md5Hash) }
                #expect(throws: DeliveryCallbackRefusal.stale) { try verify(receipt.body, now: Date().addingTimeInterval(-3600)) }
            }
        }
    }
}
