import Foundation
import GatehouseClientCore
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseVerification
import GatehouseVerificationEngine
import GatehouseWire
import Testing

/// Seed 001's flows driven through `VerificationClient` against a live server, exactly as an
/// app would call it. Limits, transport behaviour and logging are in `VerificationSDKLimitTests`.
@Suite struct VerificationSDKTests {
    @Test(arguments: TestDatabaseKind.available)
    func basicAuthStartsSMSAndCalloutAndVerifiesTheDeliveredCodes(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"])
        let client = harness.sdkClient(.basic)
        let before = Date()
        let sms = try await client.start(destination: "+4915112345678", method: .sms, sms: SMSOptions(languages: ["de-DE", "en-US"]))
        let after = Date()
        #expect(sms.status == .pending && sms.reason == nil && sms.errorCode == nil && sms.errorDetail == nil)
        #expect(sms.destination == "4915112345678" && sms.deliveryMethod == .sms && sms.fee == Decimal(string: "0.05"))
        // Five minutes after the server took the start, which was between `before` and `after` (whole seconds on the wire).
        #expect(sms.expiresAt >= before.addingTimeInterval(299) && sms.expiresAt <= after.addingTimeInterval(301))
        let smsBlock = try #require(sms.details?.sdkSMS)
        #expect(smsBlock.language == "de-DE" && smsBlock.codeLength == 6 && smsBlock.autofill == nil)
        #expect(smsBlock.templateGroup == nil && !smsBlock.templateGroupUsed && smsBlock.templateFallbackReason == nil)
        let text = try await harness.sdkNextMessage(to: "4915112345678")
        let code = VerificationHarness.sdkCode(in: text.body)
        #expect(text.channel == "sms" && text.body == smsBlock.template?.replacingOccurrences(of: "{{CODE}}", with: code))
        let verified = try await try await client.verify(sms, code: code)
        #expect(verified.id == sms.id && verified.status == .verified && verified.reason == nil && verified.errorCode == nil)
        #expect(verified.fee == Decimal(string: "0.05") && verified.details == sms.details)
        #expect(try await client.status(sms).status == .verified)

        let call = try await client.start(
            destination: "+447400123456", method: .callout, callout: CalloutOptions(languages: ["pt-BR", "pt-PT"]))
        #expect(call.status == .pending && call.deliveryMethod == .callout && call.destination == "447400123456")
        #expect(call.fee == Decimal(string: "0.10"))
        let calloutBlock = try #require(call.details?.sdkCallout)
        #expect(calloutBlock.language == "pt-BR" && calloutBlock.codeLength == 6 && !calloutBlock.templateGroupUsed)
        let announcement = try await harness.sdkNextMessage(to: "447400123456")
        #expect(announcement.channel == "voice")
        let spoken = VerificationHarness.sdkCode(in: announcement.body)
        let result = try await try await client.verify(call, code: spoken)
        #expect(result.status == .verified && result.deliveryMethod == .callout)
        if case .callout(let block)? = result.details { #expect(block.language == "pt-BR") } else { Issue.record("no callout block") }
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func clientSideChecksThrowBeforeAnythingIsSent(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"])
        let lines = SDKLogLines()
        let client = harness.sdkClient(.basic, configuration: Configuration(logger: lines))
        let smsForCall = await sdkError {
            try await client.start(destination: "+447400123470", method: .callout, sms: SMSOptions(languages: ["en-US"]))
        }
        #expect(smsForCall as? VerificationError == .channelMismatch(expected: .callout))
        let callForSMS = await sdkError { try await client.start(destination: "+447400123470", method: .sms, callout: CalloutOptions()) }
        #expect(callForSMS as? VerificationError == .channelMismatch(expected: .sms))
        #expect(await sdkError { try await client.status(number: "call me") } as? VerificationError == .invalidNumber)
        #expect(await sdkError { try await client.verify(number: "+ ( ) -", code: "123456", method: .sms) } as? VerificationError == .invalidNumber)
        // No request left the client, and the server never heard of the number.
        #expect(lines.lines.isEmpty)
        #expect(try await harness.sdkMessages(to: "447400123470").isEmpty)
        #expect(await sdkError { try await client.status(number: "+447400123470") } as? APIError == .notFound)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func languagesAreHonouredPerChannelOrFallBackToEnglish(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "cooldownSeconds": 0])
        let client = harness.sdkClient(.basic)
        let unknown = try await client.start(destination: "+447400123471", method: .sms, sms: SMSOptions(languages: ["xx-XX"]))
        #expect(unknown.details?.sdkSMS?.language == "en-US")
        #expect(unknown.details?.sdkSMS?.template == DefaultTemplates.sms(for: "en-US"))
        let georgian = try await client.start(destination: "+447400123472", method: .sms, sms: SMSOptions(languages: ["ka-GE", "en-US"]))
        let georgianBlock = try #require(georgian.details?.sdkSMS)
        #expect(georgianBlock.language == "ka-GE" && georgianBlock.template == DefaultTemplates.sms(for: "ka-GE"))
        let text = try await harness.sdkNextMessage(to: "447400123472")
        let code = VerificationHarness.sdkCode(in: text.body)
        #expect(text.body == DefaultTemplates.sms(for: "ka-GE").replacingOccurrences(of: "{{CODE}}", with: code))
        // ka-GE has a template but no recording: the call falls back, a recorded language is kept.
        let georgianCall = try await client.start(destination: "+447400123473", method: .callout, callout: CalloutOptions(languages: ["ka-GE"]))
        #expect(georgianCall.details?.sdkCallout?.language == "en-US")
        let germanCall = try await client.start(
            destination: "+447400123474", method: .callout, callout: CalloutOptions(languages: ["xx-XX", "de-DE"]))
        #expect(germanCall.details?.sdkCallout?.language == "de-DE")
        #expect(try await client.status(germanCall).details?.sdkCallout?.language == "de-DE")
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func templateGroupsSupplyTheTextOrSayWhyNot(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "cooldownSeconds": 0])
        try await harness.sdkPutTemplate(group: "checkout", channel: "sms", language: "en-US", body: "Checkout code {{CODE}} from Gatehouse")
        try await harness.sdkPutTemplate(group: "checkout", channel: "callout", language: "en-US", body: "Your checkout code is {{CODE}}")
        let client = harness.sdkClient(.basic)

        let used = try await client.start(destination: "+447400123475", method: .sms, sms: SMSOptions(templateGroup: "checkout"))
        let usedBlock = try #require(used.details?.sdkSMS)
        #expect(usedBlock.templateGroup == "checkout" && usedBlock.templateGroupUsed && usedBlock.templateFallbackReason == nil)
        #expect(usedBlock.template == "Checkout code {{CODE}} from Gatehouse" && usedBlock.language == "en-US")
        let text = try await harness.sdkNextMessage(to: "447400123475")
        #expect(text.body == "Checkout code \(VerificationHarness.sdkCode(in: text.body)) from Gatehouse")
        #expect(try await client.status(used).details == used.details)

        let german = try await client.start(
            destination: "+447400123476", method: .sms, sms: SMSOptions(languages: ["de-DE"], templateGroup: "checkout"))
        let germanBlock = try #require(german.details?.sdkSMS)
        #expect(germanBlock.templateGroup == "checkout" && !germanBlock.templateGroupUsed)
        #expect(germanBlock.templateFallbackReason == .languageMissing && germanBlock.language == "de-DE")
        #expect(germanBlock.template == DefaultTemplates.sms(for: "de-DE"))

        let unknown = await sdkError {
            try await client.start(destination: "+447400123477", method: .sms, sms: SMSOptions(templateGroup: "loyalty"))
        }
        #expect((unknown as? APIError)?.sdkValidationCodes == [.templateGroupNotFound])

        let call = try await client.start(destination: "+447400123478", method: .callout, callout: CalloutOptions(templateGroup: "checkout"))
        let callBlock = try #require(call.details?.sdkCallout)
        #expect(callBlock.templateGroup == "checkout" && callBlock.templateGroupUsed && callBlock.templateFallbackReason == nil)
        let spoken = try await harness.sdkNextMessage(to: "447400123478")
        #expect(spoken.body.hasPrefix("Your checkout code is ") && VerificationHarness.sdkCode(in: spoken.body).count == 6)
        let germanCall = try await client.start(
            destination: "+447400123479", method: .callout, callout: CalloutOptions(languages: ["de-DE"], templateGroup: "checkout"))
        #expect(germanCall.details?.sdkCallout?.templateFallbackReason == .languageMissing)
        #expect(germanCall.details?.sdkCallout?.templateGroupUsed == false)
        let unknownCall = await sdkError {
            try await client.start(destination: "+447400123477", method: .callout, callout: CalloutOptions(templateGroup: "loyalty"))
        }
        #expect((unknownCall as? APIError)?.sdkValidationCodes == [.templateGroupNotFound])
        #expect(try await harness.sdkMessages(to: "447400123477").isEmpty)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func autofillFollowsTheApplicationsDomainUnlessOverridden(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(
            kind, settings: ["minimumAuth": "basic", "cooldownSeconds": 0, "smsDomain": "example.com"])
        let client = harness.sdkClient(.basic)
        let domainMarker = Verification.Details.SMS.Autofill(type: .domain, value: "example.com")
        let defaults: [(String, SMSOptions?)] = [("+447400123480", nil), ("+447400123481", SMSOptions(autofill: .domain))]
        for (number, options) in defaults {
            let started = try await client.start(destination: number, method: .sms, sms: options)
            #expect(started.details?.sdkSMS?.autofill == domainMarker)
            let text = try await harness.sdkNextMessage(to: String(number.dropFirst()))
            let code = VerificationHarness.sdkCode(in: text.body)
            #expect(text.body.split(separator: "\n").last == "@example.com #\(code)")
            #expect(text.body.hasPrefix(DefaultTemplates.sms(for: "en-US").replacingOccurrences(of: "{{CODE}}", with: code)))
        }
        let plain = try await client.start(destination: "+447400123482", method: .sms, sms: SMSOptions(autofill: .disabled))
        #expect(plain.status == .pending && plain.details?.sdkSMS?.autofill == nil)
        let plainText = try await harness.sdkNextMessage(to: "447400123482")
        #expect(!plainText.body.contains("@") && !plainText.body.contains("#"))

        let tooLong = await sdkError { try await client.start(destination: "+447400123483", method: .sms, custom: String(repeating: "c", count: 4097)) }
        #expect((tooLong as? APIError)?.sdkValidationCodes == [.customTooLong])
        let longest = try await client.start(destination: "+447400123483", method: .sms, custom: String(repeating: "c", count: 4096))
        #expect(longest.status == .pending)

        try await harness.patchApplication(["smsDomain": NSNull()])
        let noDomain = await sdkError { try await client.start(destination: "+447400123484", method: .sms, sms: SMSOptions(autofill: .domain)) }
        #expect((noDomain as? APIError)?.sdkValidationCodes == [.smsDomainNotConfigured])
        #expect(try await harness.sdkMessages(to: "447400123484").isEmpty)
        let byDefault = try await client.start(destination: "+447400123484", method: .sms)
        #expect(byDefault.status == .pending && byDefault.details?.sdkSMS?.autofill == nil)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func publicStartsComeBackDeniedWithTheirReason(_ kind: TestDatabaseKind) async throws {
        let receiver = try CallbackReceiver()
        defer { receiver.stop() }
        let harness = try await VerificationHarness.start(kind, settings: ["callbackUrl": receiver.url, "cooldownSeconds": 0]) {
            $0.verificationCallbackTimeout = 2
        }
        receiver.secret = harness.secret
        receiver.appKey = harness.app.appKey
        let client = harness.sdkClient(.public)

        let allowed = try await client.start(destination: "+447400123485", method: .sms, custom: "signup-flow-b")
        #expect(allowed.status == .pending && allowed.reason == nil)
        let asked = try #require(receiver.received.last)
        #expect(asked.signatureValid && (asked.body["data"] as? [String: String])?["custom"] == "signup-flow-b")
        #expect(try await harness.sdkNextMessage(to: "447400123485").channel == "sms")

        func expectDenied(_ number: String, _ reason: Verification.Reason, _ detail: String, status: Verification.Status = .denied,
            method: DeliveryMethod = .sms) async throws
        {
            let started = try await client.start(destination: number, method: method)
            #expect(started.status == status && started.reason == reason && started.errorDetail == detail, "\(number)")
            #expect(started.status.isTerminal)
            #expect(try await client.status(number: number).reason == reason)
            #expect(try await harness.sdkMessages(to: String(number.dropFirst())).isEmpty, "nothing is sent to \(number)")
        }
        receiver.answer(200, #"{"action":"deny"}"#)
        try await expectDenied("+447400123486", .deniedByCallback, "your callback denied the request")
        receiver.answer(500, #"{"action":"allow"}"#)
        try await expectDenied("+447400123487", .deniedInvalidCallbackResponse, "callback response was invalid")
        receiver.answer(200, #"{"action":"allow"}"#)
        try await harness.patchApplication(["callbackUrl": NSNull()])
        try await expectDenied("+447400123488", .deniedMissingCallbackURL, "application has no callback_url")
        try await harness.patchApplication(["callbackUrl": receiver.url, "paused": true])
        let asksBefore = receiver.received.count
        try await expectDenied("+447400123489", .applicationPaused, "application is paused")
        #expect(receiver.received.count == asksBefore, "a paused application does not ask the callback")
        try await harness.patchApplication(["paused": false, "disabledCountries": ["GB"]])
        try await expectDenied("+447400123490", .destinationCountryDisabled, "destination country is disabled")
        #expect(try await client.start(destination: "+4915112345679", method: .sms).status == .pending)
        try await harness.patchApplication(["disabledCountries": [String]()])
        try await expectDenied(
            "+442079460018", .destinationNotSupportedForChannel, "destination not supported for provided delivery method", status: .failed)
        // A fixed line takes calls.
        #expect(try await client.start(destination: "+442079460018", method: .callout).status == .pending)
        // The denials superseded nothing.
        #expect(try await client.status(allowed).status == .pending)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func byNumberCallsTakeFormattedNumbersAndTellMethodFromCode(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"])
        let client = harness.sdkClient(.basic)
        let started = try await client.start(destination: "+447400123456", method: .sms)
        let current = try await client.status(number: "+44 7400 123456")
        #expect(current.id == started.id && current.status == .pending && current.destination == "447400123456")
        let code = VerificationHarness.sdkCode(in: try await harness.sdkNextMessage(to: "447400123456").body)
        let wrongMethod = await sdkError { try await client.verify(number: "+44 7400 123456", code: code, method: .callout) }
        #expect((wrongMethod as? APIError)?.sdkValidationCodes == [.deliveryMethodInvalid])
        let wrongCode = await sdkError {
            try await try await client.verify(number: "44-7400-123456", code: sdkWrong(code), method: .sms)
        }
        #expect((wrongCode as? APIError)?.sdkValidationCodes == [.codeInvalid])
        #expect(try await client.status(number: "447400123456").status == .pending)
        let verified = try await client.verify(number: "(+44) 7400 123 456", code: code, method: .sms)
        #expect(verified.id == started.id && verified.status == .verified)
        #expect(try await client.status(number: "+447400123456").status == .verified)
        // A number or id without history is a 404.
        #expect(await sdkError { try await client.status(number: "+44 7400 999999") } as? APIError == .notFound)
        #expect(await sdkError { try await client.verify(number: "+44 7400 999999", code: code, method: .sms) } as? APIError == .notFound)
        let stranger = Verification(id: UUID().uuidString.lowercased(), destination: "447400123456", deliveryMethod: .sms, expiresAt: Date())
        #expect(await sdkError { try await client.status(stranger) } as? APIError == .notFound)
        #expect(await sdkError { try await client.verify(stranger, code: code) } as? APIError == .notFound)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aSecondStartSupersedesTheFirst(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "cooldownSeconds": 0])
        let client = harness.sdkClient(.basic)
        let first = try await client.start(destination: "+447400123491", method: .sms)
        let firstText = try await harness.sdkNextMessage(to: "447400123491")
        let second = try await client.start(destination: "+44 7400 123491", method: .sms)
        let secondText = try await harness.sdkNextMessage(to: "447400123491", after: [firstText])
        #expect(second.id != first.id && second.status == .pending)
        let old = try await client.status(first)
        #expect(old.status == .failed && old.reason == .superseded && old.errorDetail == "superseded")
        #expect(try await client.status(number: "+447400123491").id == second.id)
        // The old code no longer does anything to the old verification.
        let late = try await client.verify(first, code: VerificationHarness.sdkCode(in: firstText.body))
        #expect(late.status == .failed && late.reason == .superseded)
        let verified = try await client.verify(number: "+447400123491", code: VerificationHarness.sdkCode(in: secondText.body), method: .sms)
        #expect(verified.id == second.id && verified.status == .verified)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func threeWrongCodesUseUpTheAttempts(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"])
        let client = harness.sdkClient(.basic)
        let started = try await client.start(destination: "+447400123492", method: .sms)
        let code = VerificationHarness.sdkCode(in: try await harness.sdkNextMessage(to: "447400123492").body)
        for attempt in 1...3 {
            let wrong = await sdkError { try await try await client.verify(started, code: sdkWrong(code)) }
            #expect((wrong as? APIError)?.sdkValidationCodes == [.codeInvalid], "attempt \(attempt)")
        }
        // The fourth report is a result, not an error, even with the right code.
        let fourth = try await client.verify(started, code: code)
        #expect(fourth.status == .failed && fourth.reason == .tooManyAttempts && fourth.errorDetail == "too many attempts")
        #expect(try await client.status(started).reason == .tooManyAttempts)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aVerificationPastItsLifetimeReadsAsExpired(_ kind: TestDatabaseKind) async throws {
        let clock = ManualClock()
        let harness = try await VerificationHarness.sdkStart(kind, clock: clock, settings: ["minimumAuth": "basic", "lifetimeSeconds": 60])
        let client = harness.sdkClient(.basic)
        let started = try await client.start(destination: "+447400123493", method: .sms)
        #expect(started.expiresAt == clock.now.addingTimeInterval(60))
        let code = VerificationHarness.sdkCode(in: try await harness.sdkNextMessage(to: "447400123493").body)
        clock.advance(by: 59)
        #expect(try await client.status(started).status == .pending)
        clock.advance(by: 1)
        let expired = try await client.status(started)
        #expect(expired.status == .expired && expired.reason == .expired && expired.expiresAt == started.expiresAt)
        #expect(expired.status.isTerminal)
        let late = try await client.verify(started, code: code)
        #expect(late.status == .expired && late.reason == .expired)
        #expect(try await client.verify(number: "+447400123493", code: code, method: .sms).status == .expired)
        await harness.stop()
    }
}

// MARK: - Helpers shared with VerificationSDKLimitTests

extension VerificationHarness {
    enum SDKAuth { case basic, `public` }

    /// Like `start`, with the server on `clock` so a test can cross expiry without sleeping.
    static func sdkStart(
        _ kind: TestDatabaseKind, clock: any GatehouseCore.Clock, settings: [String: Any] = [:],
        configure: (inout Settings) -> Void = { _ in }
    ) async throws -> VerificationHarness {
        let live = try await LiveServer.start(kind, clock: clock, configure: configure)
        var body = settings
        if body["minimumAuth"] == nil { body["minimumAuth"] = "public" }
        let admin = APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
        let created = try await admin.send(
            "POST", "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications",
            body: RawJSON(try JSONSerialization.data(withJSONObject: body)), as: AdminWire.CreatedOTPApplication.self)
        return VerificationHarness(live: live, app: created.application, secret: created.secret)
    }

    /// The SDK client an app would build for this server.
    func sdkClient(_ auth: SDKAuth, secret: String? = nil, configuration: Configuration = .init()) -> VerificationClient {
        let method: AuthorizationMethod =
            switch auth {
            case .basic: .basic(appKey: app.appKey, secret: secret ?? self.secret)
            case .public: .public(appKey: app.appKey)
            }
        return VerificationClient(environment: .custom(live.baseURL), auth: method, configuration: configuration)
    }

    private var sdkAdmin: APIClient {
        APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
    }

    /// `PUT …/templates/:group/:channel/:language` through the admin API.
    func sdkPutTemplate(group: String, channel: String, language: String, body: String) async throws {
        try await sdkAdmin.sendRaw(
            "PUT", "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications/\(app.id)/templates/\(group)/\(channel)/\(language)",
            body: try JSONSerialization.data(withJSONObject: ["body": body]))
    }

    /// Every outbox message to `digits`, newest first.
    func sdkMessages(to digits: String) async throws -> [AdminWire.OutboxMessage] {
        try await sdkAdmin.send("GET", "/admin/v1/outbox?to=\(digits)", as: AdminWire.List<AdminWire.OutboxMessage>.self).data
    }

    /// The message to `digits` beyond those in `seen`, once the server's dispatcher has
    /// delivered everything queued.
    func sdkNextMessage(to digits: String, after seen: [AdminWire.OutboxMessage] = []) async throws -> AdminWire.OutboxMessage {
        try await live.app.deliveries.drain()
        var fresh = try await sdkMessages(to: digits)
        for old in seen { if let index = fresh.firstIndex(of: old) { fresh.remove(at: index) } }
        guard let message = fresh.first else { throw TestSetupError("no new message to \(digits)") }
        return message
    }

    /// The code in a delivered text: its last `length` ASCII digits (calls speak them spaced).
    static func sdkCode(in body: String, length: Int = 6) -> String {
        String(body.filter { ("0"..."9").contains($0) }.suffix(length))
    }
}

/// A code of the same length that is certainly wrong.
func sdkWrong(_ code: String) -> String {
    String(code.map { $0 == "1" ? "2" : "1" })
}

/// The error `body` throws, or `nil`.
func sdkError<T>(_ body: () async throws -> T) async -> (any Error)? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

extension APIError {
    /// The typed codes of a 422.
    var sdkValidationCodes: [APIErrorCode?]? {
        if case .validationFailed(let items) = self { return items.map(\.known) }
        return nil
    }

    /// The status and first item of an `unexpectedStatus`.
    var sdkUnexpected: (code: Int, item: APIErrorItem?)? {
        if case .unexpectedStatus(let code, let items) = self { return (code, items.first) }
        return nil
    }
}

extension Verification.Details {
    var sdkSMS: SMS? { if case .sms(let block) = self { block } else { nil } }
    var sdkCallout: Callout? { if case .callout(let block) = self { block } else { nil } }
}

/// A `VerificationLogger` that keeps every line.
final class SDKLogLines: VerificationLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func log(_ message: String) { lock.withLock { stored.append(message) } }
    var lines: [String] { lock.withLock { stored } }
}
