import Testing
@testable import GatehouseServer
import GatehouseVerificationEngine

/// §11 of the wire note, copied literally: code, fixed detail, HTTP status.
private let envelopeCatalogue: [(String, String, Int)] = [
    ("destination_blank", "destination can't be blank", 422),
    ("destination_invalid", "destination is invalid", 422),
    ("delivery_method_blank", "delivery method can't be blank", 422),
    ("delivery_method_inclusion", "delivery method is not included in the list", 422),
    ("delivery_method_invalid", "delivery method is invalid", 422),
    ("languages_invalid", "languages are invalid", 422),
    ("app_hash_invalid", "app hash is invalid", 422),
    ("code_blank", "code can't be blank", 422),
    ("destination_not_supported_for_channel", "destination not supported for provided delivery method", 422),
    ("code_invalid", "code is invalid", 422),
    ("already_verified", "verification is already verified; provided value is invalid", 422),
    ("not_ready_to_report", "verification is not ready to be reported", 422),
    ("parameter_missing", "request body must contain a valid data object", 400),
    ("not_found", "not found", 404),
    ("unauthorized", "unauthorized", 401),
    ("balance_insufficient", "insufficient balance", 402),
    ("destination_in_cooldown", "verification for this destination was requested too recently", 429),
    ("validation_failed", "request is invalid", 422),
    ("internal_error", "internal server error", 500),
]

/// The SDK 1.2 and Dart-contract codes, with the texts chosen for them.
private let extensionCatalogue: [(String, String, Int)] = [
    ("custom_too_long", "custom is too long", 422),
    ("template_group_not_found", "template group not found", 422),
    ("sms_domain_not_configured", "application has no sms domain", 422),
    ("rate_limit_per_ip", "too many requests from this ip address", 429),
    ("rate_limit_failed_auth", "too many failed authentication attempts", 429),
    ("rate_limit_per_account", "too many requests for this account", 429),
    ("rate_limit_public_per_account", "too many public requests for this account", 429),
    ("volume_limit_reached", "verification volume limit reached", 429),
]

/// §10 of the wire note (plus the SDK 1.2 reasons): code, fixed detail, status.
private let outcomeCatalogue: [(String, String, String)] = [
    ("dispatch_failed", "failed to deliver", "failed"),
    ("expired", "expired", "expired"),
    ("too_many_attempts", "too many attempts", "failed"),
    ("stale_dispatch", "number unreachable", "failed"),
    ("application_deleted", "application deleted", "failed"),
    ("superseded", "superseded", "failed"),
    ("denied_missing_callback_url", "application has no callback_url", "denied"),
    ("denied_by_callback", "your callback denied the request", "denied"),
    ("denied_invalid_callback_response", "callback response was invalid", "denied"),
    ("application_paused", "application is paused", "denied"),
    ("destination_country_disabled", "destination country is disabled", "denied"),
    ("destination_not_supported_for_channel", "destination not supported for provided delivery method", "failed"),
    ("failed_to_deliver", "failed to deliver", "failed"),
]

/// The DIDWW dialect's catalogue: the engine's codes carry no slug, text or status, the
/// dialect's mapping gives each its own.
@Suite struct DIDWWErrorCatalogueTests {
    @Test func envelopeCodesMatchTheSpecCatalogue() throws {
        #expect(envelopeCatalogue.count == 19)
        for (slug, detail, status) in envelopeCatalogue {
            let code = try #require(DIDWWErrorCode(rawValue: slug), "missing \(slug)")
            #expect(code.detail == detail, "\(slug)")
            #expect(code.status == status, "\(slug)")
        }
    }

    @Test func extensionCodesHaveTheirTextsAndStatuses() throws {
        for (slug, detail, status) in extensionCatalogue {
            let code = try #require(DIDWWErrorCode(rawValue: slug), "missing \(slug)")
            #expect(code.detail == detail, "\(slug)")
            #expect(code.status == status, "\(slug)")
        }
    }

    @Test func catalogueHasNoOtherCodes() {
        let expected = Set((envelopeCatalogue + extensionCatalogue).map(\.0))
        #expect(Set(DIDWWErrorCode.allCases.map(\.rawValue)) == expected)
        #expect(DIDWWErrorCode.allCases.count == 27)
    }

    @Test func everyEngineCodeHasItsOwnSlug() {
        let slugs = VerificationErrorCode.allCases.map { DIDWWErrorCode($0).rawValue }
        #expect(Set(slugs).count == VerificationErrorCode.allCases.count)
        #expect(DIDWWErrorCode(.deliveryMethodUnknown) == .deliveryMethodInclusion)
        #expect(DIDWWErrorCode(.deliveryMethodMismatch) == .deliveryMethodInvalid)
        // Only the dialect's own refusals have no engine code.
        let dialectOnly = Set(DIDWWErrorCode.allCases).subtracting(VerificationErrorCode.allCases.map(DIDWWErrorCode.init))
        #expect(dialectOnly == [.parameterMissing, .internalError])
    }

    @Test func outcomesMatchTheirCatalogue() throws {
        for (slug, detail, status) in outcomeCatalogue {
            let outcome = try #require(VerificationOutcome.allCases.first { DIDWWOutcome.slug($0) == slug }, "missing \(slug)")
            #expect(DIDWWOutcome.detail(outcome) == detail, "\(slug)")
            #expect(outcome.status.rawValue == status, "\(slug)")
        }
        #expect(Set(VerificationOutcome.allCases.map(DIDWWOutcome.slug)) == Set(outcomeCatalogue.map(\.0)))
        #expect(VerificationOutcome.allCases.count == 13)
        // An outcome a newer binary stored is sent as it is.
        #expect(DIDWWOutcome.codeAndDetail(stored: "carrier_blocked")! == ("carrier_blocked", "carrier blocked"))
    }
}
