import Foundation
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseExecutors
import GatehouseFormats
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine
import GatehouseRules
import GatehouseWorkflowsEngine
import Testing

@testable import GatehouseServer

/// Engines refuse with data; the dialects word it. Each refusal's words are checked literally,
/// as clients and operators read them.
@Suite struct EngineErrorTextTests {
    @Test func fieldRulesReadAsSentences() {
        let cases: [(FieldRule, String)] = [
            (.required, "to is required"),
            (.length(1...200), "to must be 1 to 200 characters"),
            (.length(0...64), "to must be at most 64 characters"),
            (.digits(4...8), "to must be 4 to 8 digits"),
            (.range(0...86_400), "to must be 0 to 86400"),
            (.oneOf(["IOS", "ANDROID", "WEB"]), "to must be IOS, ANDROID or WEB"),
            (.oneOf(["apple"]), "to must be apple"),
            (.decimal(example: "10.00"), "to must be a decimal string such as 10.00"),
            (.noControlCharacters, "to must not contain control characters"),
            (.languageTag, "to must be a BCP 47 tag"),
            (.hostName, "to must be a host name"),
            (.countryCodes, "to must be ISO 3166 alpha-2 codes"),
            (.httpURL, "to must be an http or https URL"),
            (.codePlaceholder, "to must contain {{CODE}}"),
            (.phonePrefix, "to must be + and 1 to 9 digits, a country code first (such as +447400)"),
            (.emailAddress, "to must be an email address"),
            (.numberOrEmail, "to must be an international number (+14165550123) or an email address"),
            (.string, "to must be a string"),
            (.wholeNumber, "to must be a whole number"),
            (.boolean, "to must be true or false"),
            (.list, "to must be a list"),
            (.object(keys: ["platformProductId", "credits"]), "to must be an object with platformProductId and credits"),
            (.pemCertificate, "to must be a PEM certificate"),
            (.printableASCII(1...255), "to must be 1 to 255 printable ASCII characters"),
            (.number(0...2), "to must be a number from 0 to 2"),
            (.number(0.5...1.5), "to must be a number from 0.5 to 1.5"),
            (.wholeNumberFrom(1, to: nil), "to must be a whole number from 1"),
            (.wholeNumberFrom(1, to: 100), "to must be a whole number from 1 to 100"),
        ]
        for (rule, sentence) in cases { #expect(rule.sentence("to") == sentence) }
    }

    @Test func coreRefusalsReadTheSameInEveryDialect() throws {
        let cases: [(CoreError, String)] = [
            (.notFound(.tenant), "no such tenant"),
            (.notFound(.testNumber), "no such test number"),
            (.notFound(.prefixBlock), "no active block of that prefix"),
            (.invalid("maxAttempts", .range(1...10)), "maxAttempts must be 1 to 10"),
            (CoreError(.conflict, .tenantHoldsMost(.testNumber, limit: 50)), "a tenant may hold at most 50 test numbers"),
            (CoreError(.amountOutOfRange, .balanceOutOfRange), "the amount would take the balance out of its range"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
        #expect(CoreError(.invalidArgument, .testDestinationNotReserved(isEmail: true)).text.hasPrefix("that address is not in a reserved range"))
    }

    @Test func commerceRefusalsReadTheSameInEveryDialect() {
        let cases: [(CommerceError, String)] = [
            (.notFound(.plan), "no such plan"),
            (.notFound(.appStoreConfiguration), "no App Store configuration"),
            (.invalid("credits", .range(1...1_000_000)), "credits must be 1 to 1000000"),
            (CommerceError(.validationFailed, .appStore(.privateKey)), "privateKey must be the contents of the App Store Connect .p8 file"),
            (CommerceError(.validationFailed, .sandboxOnly("xcodeCertificatePEM")), "xcodeCertificatePEM is refused on production tenants"),
            (CommerceError(.conflict, .productTaken), "a plan already uses this App Store product id"),
            (CommerceError(.validationFailed, .unknownField("colour")), "unknown field: colour"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
    }

    @Test func workflowRefusalsReadTheSameInEveryDialect() {
        let cases: [(WorkflowError, String)] = [
            (WorkflowError(.notFound, .noSuchWorkflow("wf-1")), "No workflow wf-1."),
            (WorkflowError(.notFound, .noSuchReport("ev-1")), "No report ev-1."),
            (.definition("maxConcurrentRuns", .range(1...1000)), "maxConcurrentRuns must be 1 to 1000"),
            (WorkflowError(.definitionInvalid, .workflowID(.reserved("execute"))), "id execute is reserved"),
            (WorkflowError(.definitionInvalid, .executorUnknown(known: ["openai", "webhook"])), "executor.kind must be one of openai, webhook"),
            (WorkflowError(.definitionInvalid, .settingNotTaken(executor: "openai", setting: "executor.config.top_p")), "openai does not take executor.config.top_p"),
            (WorkflowError(.definitionInvalid, .takesNoSettings(executor: "document-digest", setting: "k")), "document-digest takes no executor settings (k)"),
            (WorkflowError(.definitionInvalid, .settingNeeded(executor: "openai", setting: "executor.config.prompt", length: 1...20_000)),
             "openai needs executor.config.prompt, 1 to 20000 characters"),
            (.definition("executor.config.temperature", .number(0...2)), "executor.config.temperature must be a number from 0 to 2"),
            (.definition("executor.config.maxTokens", .wholeNumberAbove(0)), "executor.config.maxTokens must be a whole number above 0"),
            (.definition("executor.config.json", .boolean), "executor.config.json must be true or false"),
            (WorkflowError(.definitionInvalid, .onlySetting(executor: "url-check", setting: "executor.config.input", .inputKey)),
             "url-check takes only executor.config.input, the key of the input holding the address"),
            (WorkflowError(.definitionInvalid, .onlySetting(executor: "webhook", setting: "executor.config.path", .workerPath)),
             "webhook takes only executor.config.path, a path under the worker URL starting with /"),
            (WorkflowError(.definitionInvalid, .inputs(.keyUsedTwice("a"))), "input key a is used twice"),
            (WorkflowError(.definitionInvalid, .inputs(.rule(key: "n", .minAboveMax))), "input n: min is above max"),
            (WorkflowError(.inputInvalid, .input(WorkflowInputProblem("Pages", .below(1)))), "Pages must be at least 1"),
            (WorkflowError(.inputInvalid, .notAnInput("extra")), "extra is not an input of this workflow"),
            (WorkflowError(.fileInvalid, .input(WorkflowInputProblem("Document", .outsideFileOptions(.init(accept: ".pdf,.docx", maxSizeMb: 10))))),
             "Document must be a .pdf or .docx file of at most 10 MB"),
            (WorkflowError(.insufficientCredits(balance: 3), .insufficientCredits(cost: 5, balance: 3)), "This workflow costs 5 credits and the wallet holds 3."),
            (WorkflowError(.entitlementInactive, .entitlementInactive(trialStarted: true)), "Your trial has ended and no active subscription was found for this service."),
            (WorkflowError(.entitlementInactive, .entitlementInactive(trialStarted: false)),
             "No trial or active subscription covers this service: start the trial or subscribe."),
            (WorkflowError(.idempotencyKeyReused, .idempotencyKeyReused), "This Idempotency-Key was used with a different request."),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
    }

    /// The built-in executors' refusals of a definition, through their own checks.
    @Test func executorSettingsAreRefusedInTheirOwnWords() throws {
        let http = UnimplementedOutboundHTTP()
        let webhook = WebhookWorkflowExecutor(http: http, clock: ManualClock(), publicURL: { URL(string: "http://127.0.0.1")! })
        let cases: [(any WorkflowExecutor, [String: JSONValue], String)] = [
            (DocumentDigestExecutor(), ["k": .bool(true)], "document-digest takes no executor settings (k)"),
            (OpenAIWorkflowExecutor(http: http), [:], "openai needs executor.config.prompt, 1 to 20000 characters"),
            (OpenAIWorkflowExecutor(http: http), ["prompt": .string("p"), "maxTokens": .number(JSONNumber(0))],
             "executor.config.maxTokens must be a whole number above 0"),
            (URLCheckExecutor(http: http, allowPrivateTargets: false), ["other": .string("url")],
             "url-check takes only executor.config.input, the key of the input holding the address"),
            (URLCheckExecutor(http: http, allowPrivateTargets: false), ["input": .string("")],
             "url-check takes only executor.config.input, the key of the input holding the address"),
            (webhook, ["path": .string("../up")], "webhook takes only executor.config.path, a path under the worker URL starting with /"),
            (webhook, ["url": .string("/a")], "webhook takes only executor.config.path, a path under the worker URL starting with /"),
        ]
        for (executor, configuration, text) in cases {
            #expect(throws: WorkflowError.self) { try executor.validate(configuration: configuration) }
            do { try executor.validate(configuration: configuration) } catch { #expect(error.text == text) }
        }
    }

    @Test func managedAPIRefusalsReadTheSameInEveryDialect() {
        let cases: [(ManagedAPIError, String)] = [
            (ManagedAPIError(.notFound, .noSuchAPI("crm")), "No managed API crm."),
            (ManagedAPIError(.definitionInvalid, .definition(.url(field: "baseUrl", .httpsOnly))), "baseUrl must use https (http only for a development definition)"),
            (ManagedAPIError(.definitionInvalid, .definition(.directShipsSecret(authType: "BASIC"))),
             "a direct BASIC definition would ship its password to every device; use mode proxied"),
            (ManagedAPIError(.definitionInvalid, .definition(.directShipsSecret(authType: "API_KEY"))),
             "a direct API_KEY definition would ship its key to every device; use mode proxied"),
            (ManagedAPIError(.definitionInvalid, .definition(.proxiedSecretMissing(authType: "API_KEY"))), "a proxied API_KEY definition needs its secret"),
            (ManagedAPIError(.secretKeyMissing, .secretKeyMissing(saving: true)), "this server has no managed-api-secret-key, so it cannot keep a secret"),
            (ManagedAPIError(.secretKeyMissing, .secretKeyMissing(saving: false)), "this server has no managed-api-secret-key"),
            (ManagedAPIError(.notProxied, .direct("crm")), "crm is a direct managed API: devices call it themselves"),
            (ManagedAPIError(.pathRefused, .path(.emptySegment)), "relativeUrl may not hold an empty segment (//)"),
            (ManagedAPIError(.destinationRefused, .destination(.notPublic(host: "10.0.0.1"))), "10.0.0.1 is not a public address"),
            (ManagedAPIError(.destinationRefused, .destination(.resolvesToPrivate(host: "intranet.example"))),
             "intranet.example resolves to an address that is not public"),
            (ManagedAPIError(.destinationRefused, .destination(.unvetted(definition: "crm"))),
             "crm may not be reached: its address could not be checked"),
            (ManagedAPIError(.credentialUnavailable, .credential(.tokenEndpointRefused(definition: "crm", error: "invalid_client"))),
             "the token endpoint of crm refused the client: invalid_client"),
            (ManagedAPIError(.credentialUnavailable, .credential(.tokenEndpointAnswered(definition: "crm", status: 302))),
             "the token endpoint of crm answered HTTP 302 without a usable access_token"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(AdminError.httpError(error).message == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
    }

    @Test func purchaseRefusalsReadAsTheSeedsWordThem() {
        let cases: [(PurchaseError, String)] = [
            (PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: true), "This plan belongs to another account."),
            (PurchaseError(.purchaseInvalid, .planTypeMismatch(interval: "monthly", expectedType: "Auto-Renewable Subscription")),
             "A monthly plan must be a Auto-Renewable Subscription."),
            (PurchaseError(.storeUnavailable, .storeUnreachable), "The App Store could not be reached. Try again."),
            (PurchaseError(.entitlementInactive, .entitlementInactive), "Your trial has ended and no active subscription was found for this service."),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(DatacoveError(mapping: error)?.message == text)
        }
        #expect(DatacoveError(mapping: PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.planToAccount), canTransfer: true))?.canTransfer == true)
    }

    /// Possession refusals read in Prove's words, and the operator API words them the same.
    @Test func possessionRefusalsReadInProvesWords() {
        let cases: [(PossessionError, String)] = [
            (.missing("flowType"), "field 'flowType' is missing"),
            (PossessionError(.fieldMissing, .missingEither("dob", or: "ssn")), "field 'dob' or 'ssn' is missing"),
            (PossessionError(.fieldMissing, .missingOrAlternative("individual.firstName", alternative: "individual.ssn")),
             "field 'individual.firstName' (or 'individual.ssn') is missing"),
            (.invalid("flowType", .oneOf(["mobile", "desktop"])), "field 'flowType' must be mobile or desktop"),
            (.invalid("label", .length(1...100)), "field 'label' must be 1 to 100 characters"),
            (.invalid("smsMessage", .length(0...160)), "field 'smsMessage' must be at most 160 characters"),
            (.invalid("individual.ssn", .digits(9...9)), "field 'individual.ssn' must be 9 digits"),
            (.invalid("clientId", .printableASCII(1...200)), "field 'clientId' must be 1 to 200 printable ASCII characters"),
            (.invalid("emailAddress", .emailAddress), "field 'emailAddress' is not an email address"),
            (.invalid("smsMessage", .codeRun(4...6)), "field 'smsMessage' must hold the code as one run of #### to ######"),
            (.invalid("smsMessage", .codeRunNotPlaceholder(4...6)), "field 'smsMessage' must hold the code as #### to ######, not {{…}}"),
            (.invalid("finalTargetUrl", .targetURL(maxLength: 128)),
             "field 'finalTargetUrl' must be an http(s) URL of at most 128 characters from [A-Za-z0-9-._+=/:?]"),
            (.invalid("x.addresses", .printableParts(1...200)), "field 'x.addresses' parts must be 1 to 200 printable characters"),
            (.invalid("x", .atMostAddresses(10, emailAddresses: 10)), "field 'x' may hold at most 10 addresses and 10 email addresses"),
            (PossessionError(.phoneNumberInvalid, .phoneNumber("phoneNumber", .notMobile)), "phoneNumber is not a mobile number"),
            (PossessionError(.phoneNumberInvalid, .phoneNumberNeeded), "a phone number is needed"),
            (PossessionError(.unauthorized, .badClientCredentials), "invalid client credentials"),
            (PossessionError(.stepNotAllowed, .stepOutOfOrder), "step not allowed"),
            (PossessionError(.rateLimited, .tooManyCodes, retryAfter: 60), "too many codes for this number; try later"),
        ]
        for (error, text) in cases {
            #expect(error.text == text)
            #expect(ProveError(mapping: error)?.message == text)
        }
        #expect(PossessionError(.phoneNumberInvalid, .phoneNumberNeeded).field == "phoneNumber")
        #expect(PossessionError(.fieldMissing, .missingEither("dob", or: "ssn")).field == "dob")
    }
}
