import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseVerificationEngine
import Testing
@testable import GatehouseServer

/// Each dialect maps the engines' domain errors in one place and renders every error under
/// its prefix through one renderer; the same engine error means the same thing everywhere.
@Suite struct DialectErrorTests {
    let context = RequestContext(requestID: "req-7", clientAddress: "127.0.0.1", route: "/x")

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var all: [String] { lock.withLock { stored } }
    }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.bodyData) as? [String: Any])
    }

    @Test func aConflictIs409InEveryDialectThatShowsIt() throws {
        let conflict = CommerceError(.conflict, .productTaken)
        let store = DatacoveError.render(conflict, path: "/api/tenants/v1/t/service-entitlement-products", context: context, logger: .silent)
        #expect(store.status == 409)
        let storeError = try #require(try json(store)["error"] as? [String: Any])
        #expect(storeError["code"] as? String == "CONFLICT" && storeError["error"] as? String == "Conflict")
        let flow = SubscriptionFlowError.render(conflict, context: context, logger: .silent)
        #expect(flow.status == 409)
        #expect(NSDictionary(dictionary: try json(flow)) == ["status": false, "code": "CONFLICT", "message": "a plan already uses this App Store product id"])
    }

    @Test func sessionRefusalsReadAsDatacoveCodes() throws {
        let expected: [(SessionErrorCode, String)] = [
            (.sessionEvicted, "SESSION_EVICTED"), (.tokenReused, "TOKEN_REUSED"), (.tokenExpired, "TOKEN_EXPIRED"),
            (.tokenInvalid, "TOKEN_INVALID"), (.sessionNotFound, "SESSION_NOT_FOUND"), (.accountDeleted, "ACCOUNT_DELETED"),
        ]
        #expect(expected.count == SessionErrorCode.allCases.count)
        for (code, wire) in expected {
            let response = DatacoveError.render(SessionError(code), path: "/api/auth/v1/refresh", context: context, logger: .silent)
            #expect(response.status == 401)
            let body = try json(response)
            #expect(body["path"] as? String == "/api/auth/v1/refresh")
            #expect((body["error"] as? [String: Any])?["code"] as? String == wire)
        }
    }

    @Test func signInLimitsCarryRetryAfter() throws {
        let response = DatacoveError.render(AccountsError(.tooManyWrongCodes, retryAfter: 1200), path: "/api/auth/v1/mobile/verify-otp",
                                            context: context, logger: .silent)
        #expect(response.status == 429 && response.headers["Retry-After"] == "1200")
        let detail = try #require(try json(response)["error"] as? [String: Any])
        #expect(NSDictionary(dictionary: detail) == [
            "statusCode": 429, "error": "Too Many Requests", "message": "Too many wrong codes. Try again later.", "code": "OTP_TOO_MANY_ATTEMPTS",
        ])
    }

    @Test func verificationFailuresKeepTheDIDWWEnvelope() throws {
        let response = DIDWWError.render(VerificationFailure(.destinationInCooldown, retryAfter: 30), context: context, logger: .silent)
        #expect(response.status == 429 && response.headers["Retry-After"] == "30")
        #expect(String(decoding: response.bodyData, as: UTF8.self)
            == #"{"errors":[{"code":"destination_in_cooldown","detail":"verification for this destination was requested too recently"}]}"#)
    }

    /// Prove's SDKs decode only 400, 401, 403 and 500 from Validate, Challenge and Complete: what
    /// those steps refuse in a request is one of them, and a correlationId that names no flow is
    /// Prove's 8008. The operator API keeps its 404 for an identity or a client it does not have.
    @Test func flowStepRefusalsAreStatusesProvesSDKsDecode() throws {
        let refusals: [(PossessionError.Code, Int, Int)] = [
            (.noSuchFlow, 400, 8008), (.fieldMissing, 400, 1001), (.fieldInvalid, 400, 1002), (.stepNotAllowed, 403, 1003),
            (.flowExpired, 403, 1004), (.unauthorized, 401, 1005),
        ]
        for (code, status, wire) in refusals {
            let response = ProveError.render(PossessionError(code, .flowChanged), context: context, logger: .silent)
            let body = try json(response)
            #expect(response.status == status && body["code"] as? Int == wire, "\(code)")
        }
        #expect(ProveError.render(PossessionError(.noSuchFlow, .unknownCorrelationId), context: context, logger: .silent).bodyData
            == Data(#"{"code":8008,"message":"invalid correlation ID"}"#.utf8))
        #expect(AdminError.render(PossessionError(.notFound, .noIdentityForNumber), context: context, logger: .silent).status == 404)
    }

    /// What no mapping knows is a 500 naming only the request id, and a log line with the rest.
    @Test func unknownErrorsAreLoggedAndSayNothing() throws {
        struct Surprise: Error { let secret = "4165550199" }
        let lines = Lines()
        let logger = Logger(write: { lines.append($0) })
        let responses = [
            DatacoveError.render(Surprise(), path: "/api/users/v1/profile", context: context, logger: logger),
            SubscriptionFlowError.render(Surprise(), context: context, logger: logger),
            DIDWWError.render(Surprise(), context: context, logger: logger),
            AdminError.render(Surprise(), context: context, logger: logger),
        ]
        for response in responses {
            #expect(response.status == 500)
            #expect(!String(decoding: response.bodyData, as: UTF8.self).contains("Surprise"))
        }
        #expect(lines.all.count == 4)
        #expect(lines.all.allSatisfy { $0.contains("Surprise") && $0.contains("req-7") && !$0.contains("4165550199") })
    }

    /// Apple retries a 5xx and drops a 4xx: only a notification that can never be taken is
    /// refused; a storage or engine failure stays a 500 so that it comes again.
    @Test func theWebhookKeepsRetryableFailuresRetryable() throws {
        let path = "/webhooks/apple"
        #expect(AppleWebhookRoutes.render(NotificationRejected(reason: "bad chain"), path: path, context: context, logger: .silent).status == 400)
        #expect(AppleWebhookRoutes.render(DatacoveError.validation("not JSON"), path: path, context: context, logger: .silent).status == 400)
        #expect(AppleWebhookRoutes.render(CoreError.notFound(.tenant), path: path, context: context, logger: .silent).status == 500)
        #expect(AppleWebhookRoutes.render(CommerceError(.conflict, .productTaken), path: path, context: context, logger: .silent).status == 500)
    }
}
