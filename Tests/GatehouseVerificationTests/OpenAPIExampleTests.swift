import Foundation
import Testing
@testable import GatehouseVerification

/// The examples of `specs/didww-verification-openapi.json`. The spec gives examples per property
/// (`components.schemas.Verification.properties.*.example`, `Error.properties.detail.example`,
/// `ErrorCode.example`, `VerificationErrorCode.example`) and whole request bodies
/// (`paths./api/v1/verifications.post.requestBody.content.application/json.examples`); the
/// response documents below are assembled from them verbatim.
@Suite struct OpenAPIExampleTests {
    static let smsVerification = """
        {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"sms",
        "fee":"0.06","status":"pending","error_code":null,"error_detail":null,"expires_at":"2026-08-27T13:19:20Z",
        "sms":{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,"code_length":6,
        "app_hash":"A1b2C3d4E5f"}}}
        """
    static let calloutVerification = """
        {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"callout",
        "fee":"0.06","status":"failed","error_code":"too_many_attempts","error_detail":"too many attempts",
        "expires_at":"2026-08-27T13:19:20Z","callout":{"language":"pt-BR","code_length":6}}}
        """
    static let errorEnvelope = #"{"errors":[{"code":"delivery_method_invalid","detail":"delivery method is invalid"}]}"#

    /// `components.schemas.ErrorCode.oneOf`: every envelope code with its description as detail.
    static let errorCodeCatalogue: [(String, String)] = [
        ("destination_blank", "destination can't be blank"), ("destination_invalid", "destination is invalid"),
        ("delivery_method_blank", "delivery method can't be blank"),
        ("delivery_method_inclusion", "delivery method is not included in the list"),
        ("delivery_method_invalid", "delivery method is invalid"), ("languages_invalid", "languages are invalid"),
        ("app_hash_invalid", "app hash is invalid"), ("code_blank", "code can't be blank"),
        ("destination_not_supported_for_channel", "destination not supported for provided delivery method"),
        ("code_invalid", "code is invalid"),
        ("already_verified", "verification is already verified; provided value is invalid"),
        ("not_ready_to_report", "verification is not ready to be reported"),
        ("parameter_missing", "request body must contain a valid data object"), ("not_found", "not found"),
        ("unauthorized", "unauthorized"), ("balance_insufficient", "insufficient balance"),
        ("destination_in_cooldown", "verification for this destination was requested too recently"),
        ("validation_failed", "request is invalid"), ("internal_error", "internal server error"),
    ]

    /// `components.schemas.VerificationErrorCode.oneOf` (also listed under `ErrorCode`).
    static let outcomeCatalogue: [(String, String, Verification.Reason)] = [
        ("dispatch_failed", "failed to deliver", .failedToDeliver), ("expired", "expired", .expired),
        ("too_many_attempts", "too many attempts", .tooManyAttempts),
        ("stale_dispatch", "number unreachable", .numberUnreachable),
        ("application_deleted", "application deleted", .applicationDeleted), ("superseded", "superseded", .superseded),
        ("denied_missing_callback_url", "application has no callback_url", .deniedMissingCallbackURL),
        ("denied_by_callback", "your callback denied the request", .deniedByCallback),
        ("denied_invalid_callback_response", "callback response was invalid", .deniedInvalidCallbackResponse),
    ]

    @Test func smsVerificationExampleDecodes() async throws {
        let (client, _) = TestSupport.client(status: 201, json: Self.smsVerification)
        let verification = try await client.start(destination: "+4915112345678", method: .sms)
        #expect(verification.id == "01a0435e-2b71-7762-b0c2-22fabc5ed19c")
        #expect(verification.destination == "4915112345678")
        #expect(verification.deliveryMethod == .sms)
        #expect(verification.fee == Decimal(string: "0.06"))
        #expect(verification.status == .pending)
        #expect(verification.reason == nil)
        #expect(verification.expiresAt == Date(timeIntervalSince1970: 1_787_836_760))
        #expect(verification.details == .sms(.init(
            template: "Your code is {{CODE}}", language: "de-DE", codeLength: 6,
            autofill: .init(type: .appHash, value: "A1b2C3d4E5f"))))
    }

    @Test func calloutVerificationExampleDecodes() async throws {
        let (client, _) = TestSupport.client(status: 200, json: Self.calloutVerification)
        let result = try await client.status(TestSupport.handle(method: .callout))
        #expect(result == VerificationResult(
            id: "01a0435e-2b71-7762-b0c2-22fabc5ed19c", destination: "4915112345678", deliveryMethod: .callout,
            fee: Decimal(string: "0.06"), status: .failed, reason: .tooManyAttempts, errorCode: "too_many_attempts",
            errorDetail: "too many attempts", expiresAt: Date(timeIntervalSince1970: 1_787_836_760),
            details: .callout(.init(language: "pt-BR", codeLength: 6))))
    }

    @Test func errorEnvelopeExampleDecodes() async {
        let (client, _) = TestSupport.client(status: 422, json: Self.errorEnvelope)
        do {
            _ = try await client.verify(number: "+4915112345678", code: "123456", method: .callout)
            Issue.record("expected validationFailed")
        } catch APIError.validationFailed(let items) {
            #expect(items == [.init(code: "delivery_method_invalid", detail: "delivery method is invalid")])
            #expect(items.first?.known == .deliveryMethodInvalid)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func everyCatalogueCodeDecodesTyped() async {
        let (client, _) = TestSupport.client(status: 422, json: Fixtures.errorBody(Self.errorCodeCatalogue))
        do {
            _ = try await client.status(TestSupport.handle())
            Issue.record("expected validationFailed")
        } catch APIError.validationFailed(let items) {
            #expect(items.count == Self.errorCodeCatalogue.count)
            for (item, (code, detail)) in zip(items, Self.errorCodeCatalogue) {
                #expect(item.code == code)
                #expect(item.detail == detail)
                #expect(item.known?.rawValue == code)
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func everyOutcomeCodeDecodesAsReason() async throws {
        let transport = MockTransport()
        for (code, detail, _) in Self.outcomeCatalogue {
            transport.enqueue(status: 200, json: Fixtures.verification(status: "failed", errorCode: code, errorDetail: detail))
        }
        let client = TestSupport.client(transport)
        for (code, detail, reason) in Self.outcomeCatalogue {
            let result = try await client.status(TestSupport.handle())
            #expect(result.reason == reason)
            #expect(result.errorCode == code)
            #expect(result.errorDetail == detail)
        }
        #expect(Verification.Reason(wireValue: "too_many_attempts") == .tooManyAttempts)
    }

    @Test func calloutRequestExampleIsWhatTheSDKSends() async throws {
        let transport = MockTransport(status: 201, json: Fixtures.startCallout())
        try await TestSupport.client(transport).start(
            destination: "+4915112345678", method: .callout, callout: .init(languages: ["pt-BR", "pt-PT"]))
        let example = #"{"data":{"destination":"+4915112345678","delivery_method":"callout","callout":{"languages":["pt-BR","pt-PT"]}}}"#
        #expect(try TestSupport.canonical(TestSupport.firstBody(transport)) == TestSupport.canonical(example))
    }

    /// The spec's sms example also carries `app_hash`, an Android option the iOS SDK does not offer.
    @Test func smsRequestExampleWithoutAppHashIsWhatTheSDKSends() async throws {
        let transport = MockTransport(status: 201, json: Fixtures.startSMS)
        try await TestSupport.client(transport).start(
            destination: "+4915112345678", method: .sms, sms: .init(languages: ["de-DE", "en-US"]))
        let example = #"{"data":{"destination":"+4915112345678","delivery_method":"sms","sms":{"languages":["de-DE","en-US"]}}}"#
        #expect(try TestSupport.canonical(TestSupport.firstBody(transport)) == TestSupport.canonical(example))
    }

    @Test func reportRequestExampleIsWhatTheSDKSends() async throws {
        let transport = MockTransport(status: 200, json: Fixtures.verifiedSMS())
        _ = try await TestSupport.client(transport).verify(number: "+4915112345678", code: "123456", method: .sms)
        let example = #"{"data":{"delivery_method":"sms","code":"123456"}}"#
        #expect(try TestSupport.canonical(TestSupport.firstBody(transport)) == TestSupport.canonical(example))
    }
}
