import Foundation
import GatehouseClientCore
import Testing
@testable import GatehouseVerification

@Suite struct ErrorMappingTests {
    private func error(status: Int, json: String, headers: [String: String] = [:]) async -> (any Error)? {
        let (client, _) = TestSupport.client(status: status, json: json, headers: headers)
        do {
            _ = try await client.status(TestSupport.handle())
            return nil
        } catch {
            return error
        }
    }

    @Test func badRequestIsInvalidParameters() async {
        let json = Fixtures.errorBody([("parameter_missing", "request body must contain a valid data object")])
        let error = await error(status: 400, json: json)
        #expect(error as? APIError == .invalidParameters([
            .init(code: "parameter_missing", detail: "request body must contain a valid data object"),
        ]))
    }

    @Test(arguments: [Fixtures.errorBody([("unauthorized", "unauthorized")]), "", "<html>401</html>"])
    func unauthorizedIgnoresTheBody(json: String) async {
        #expect(await error(status: 401, json: json) as? APIError == .unauthorized)
    }

    @Test(arguments: [
        Fixtures.errorBody([("insufficient_balance", "insufficient balance")]),
        Fixtures.errorBody([("balance_insufficient", "insufficient balance")]),
    ])
    func paymentRequiredIsInsufficientBalance(json: String) async {
        #expect(await error(status: 402, json: json) as? APIError == .insufficientBalance)
    }

    @Test func notFound() async {
        #expect(await error(status: 404, json: Fixtures.errorBody([("not_found", "not found")])) as? APIError == .notFound)
    }

    @Test func unprocessableIsValidationFailedWithEveryItem() async {
        let json = Fixtures.errorBody([
            ("destination_blank", "destination can't be blank"), ("delivery_method_blank", "delivery method can't be blank"),
        ])
        #expect(await error(status: 422, json: json) as? APIError == .validationFailed([
            .init(code: "destination_blank", detail: "destination can't be blank"),
            .init(code: "delivery_method_blank", detail: "delivery method can't be blank"),
        ]))
    }

    @Test func serverErrorWithEmptyBodyIsUnexpectedStatusWithoutItems() async {
        #expect(await error(status: 500, json: "") as? APIError == .unexpectedStatus(code: 500, items: []))
    }

    @Test(arguments: [202, 204, 301, 418, 503])
    func otherStatusesAreUnexpectedStatus(status: Int) async {
        let json = Fixtures.errorBody([("internal_error", "internal server error")])
        #expect(await error(status: status, json: json) as? APIError == .unexpectedStatus(
            code: status, items: [.init(code: "internal_error", detail: "internal server error")]))
    }

    @Test func urlErrorPassesThroughAsTransport() async {
        let transport = MockTransport(error: URLError(.notConnectedToInternet))
        await #expect(throws: APIError.transport(URLError(.notConnectedToInternet))) {
            try await TestSupport.client(transport).status(TestSupport.handle())
        }
    }

    @Test func timeoutIsTransport() async {
        let transport = MockTransport(error: URLError(.timedOut))
        await #expect(throws: APIError.transport(URLError(.timedOut))) {
            try await TestSupport.client(transport).status(number: "+15551234567")
        }
    }

    @Test func otherTransportFailuresAreUnknownTransport() async {
        struct Odd: Error {}
        let transport = MockTransport(error: Odd())
        await #expect(throws: APIError.transport(URLError(.unknown))) {
            try await TestSupport.client(transport).status(TestSupport.handle())
        }
    }

    @Test func coreUnexpectedResponseIsUnexpectedResponse() async {
        let transport = MockTransport(error: GatehouseClientError.unexpectedResponse("no HTTP response"))
        await #expect(throws: APIError.unexpectedResponse("no HTTP response")) {
            try await TestSupport.client(transport).status(TestSupport.handle())
        }
    }

    @Test func knownSlugIsTyped() {
        #expect(APIErrorItem(code: "code_invalid", detail: "code is invalid").known == .codeInvalid)
        #expect(APIErrorItem(code: "app_hash_invalid", detail: "").known == .appHashInvalid)
        #expect(APIErrorItem(code: "unauthorized", detail: "").known == .unauthorized)
    }

    @Test func unknownSlugKeepsCodeWithoutKnown() async {
        let error = await error(status: 422, json: Fixtures.errorBody([("brand_new_rule", "new rule")]))
        guard case .validationFailed(let items)? = error as? APIError else {
            Issue.record("expected validationFailed, got \(String(describing: error))")
            return
        }
        #expect(items.first?.code == "brand_new_rule")
        #expect(items.first?.detail == "new rule")
        #expect(items.first?.known == nil)
    }

    @Test func codelessElementIsDroppedAndSiblingsKept() async {
        let json = #"{"errors":[{"code":"destination_blank","detail":"a"},{"detail":"no code"},{"code":7},"text",{"code":"code_blank","detail":"b"}]}"#
        #expect(await error(status: 422, json: json) as? APIError == .validationFailed([
            .init(code: "destination_blank", detail: "a"), .init(code: "code_blank", detail: "b"),
        ]))
    }

    @Test func missingOrNonStringDetailBecomesEmpty() async {
        let json = #"{"errors":[{"code":"code_blank"},{"code":"code_invalid","detail":5}]}"#
        #expect(await error(status: 422, json: json) as? APIError == .validationFailed([
            .init(code: "code_blank", detail: ""), .init(code: "code_invalid", detail: ""),
        ]))
    }

    @Test(arguments: ["not json", "[]", "{}", #"{"errors":"x"}"#, #"{"errors":null}"#, "\"text\""])
    func unreadableEnvelopeGivesNoItems(json: String) async {
        #expect(await error(status: 422, json: json) as? APIError == .validationFailed([]))
    }

    @Test func knownIsNotPartOfEquality() {
        #expect(APIErrorItem(code: "x", detail: "y", retryAfter: 3) == APIErrorItem(code: "x", detail: "y", retryAfter: 3))
        #expect(APIErrorItem(code: "x", detail: "y", retryAfter: 3) != APIErrorItem(code: "x", detail: "y"))
    }

    /// Every slug the API can put in an error envelope, old and new.
    static let envelopeSlugs = [
        "destination_blank", "destination_invalid", "delivery_method_blank", "delivery_method_inclusion",
        "delivery_method_invalid", "languages_invalid", "app_hash_invalid", "code_blank",
        "destination_not_supported_for_channel", "code_invalid", "already_verified", "not_ready_to_report",
        "parameter_missing", "not_found", "unauthorized", "balance_insufficient", "destination_in_cooldown",
        "validation_failed", "internal_error",
        "code_value_present", "cli_blank", "cli_value_present", "cli_invalid",
        "sms_domain_not_configured", "template_group_not_found", "custom_too_long", "rate_limit_per_ip",
        "rate_limit_failed_auth", "rate_limit_per_account", "rate_limit_public_per_account", "volume_limit_reached",
        "insufficient_balance",
    ]

    /// Every outcome slug a verification's `error_code` can carry.
    static let outcomeSlugs = [
        "dispatch_failed", "failed_to_deliver", "expired", "too_many_attempts", "stale_dispatch", "application_deleted",
        "superseded", "denied_missing_callback_url", "denied_by_callback", "denied_invalid_callback_response",
        "application_paused", "destination_country_disabled", "destination_not_supported_for_channel",
    ]

    @Test func registryCoversEveryEnvelopeSlug() {
        #expect(APIErrorCode.allCases.count == 32)
        #expect(Set(APIErrorCode.allCases.map(\.rawValue)) == Set(Self.envelopeSlugs))
        for slug in Self.envelopeSlugs {
            #expect(APIErrorCode(rawValue: slug)?.rawValue == slug)
        }
    }

    @Test func everyOutcomeSlugIsATypedReason() {
        for slug in Self.outcomeSlugs {
            #expect(Verification.Reason(wireValue: slug) != .other(slug), "\(slug)")
        }
        // Only one slug is both: 1.2 reports an unreachable channel as a failed start,
        // while older servers rejected it with 422.
        let both = Set(Self.outcomeSlugs).intersection(APIErrorCode.allCases.map(\.rawValue))
        #expect(both == ["destination_not_supported_for_channel"])
    }

    @Test func twentyTwoOriginalCodesAndTheirSlugs() {
        let original: [APIErrorCode: String] = [
            .destinationBlank: "destination_blank", .destinationInvalid: "destination_invalid",
            .deliveryMethodBlank: "delivery_method_blank", .deliveryMethodInclusion: "delivery_method_inclusion",
            .deliveryMethodInvalid: "delivery_method_invalid", .languagesInvalid: "languages_invalid",
            .appHashInvalid: "app_hash_invalid", .codeBlank: "code_blank", .codeValuePresent: "code_value_present",
            .cliBlank: "cli_blank", .cliValuePresent: "cli_value_present",
            .destinationNotSupportedForChannel: "destination_not_supported_for_channel", .codeInvalid: "code_invalid",
            .cliInvalid: "cli_invalid", .alreadyVerified: "already_verified", .notReadyToReport: "not_ready_to_report",
            .validationFailed: "validation_failed", .parameterMissing: "parameter_missing", .unauthorized: "unauthorized",
            .notFound: "not_found", .balanceInsufficient: "balance_insufficient", .internalError: "internal_error",
        ]
        #expect(original.count == 22)
        for (code, slug) in original { #expect(code.rawValue == slug) }
        #expect(APIErrorCode.destinationInCooldown.rawValue == "destination_in_cooldown")
    }
}
