import GatehouseOutbound
import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseHTTP
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The App Store Server API client against a local stand-in App Store: a real HTTP server that
/// checks each request's ES256 bearer token and serves transactions signed by a test chain.
@Suite struct AppStoreServerAPITests {
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyId = "2X9R4HXF34"
    static let productionId = "1000000000000001"
    static let sandboxOnlyId = "2000000000000002"
    static let rateLimitedId = "4290000000000000"
    static let failingId = "5000000000000000"
    static let unknownId = "9999999999999999"

    /// One signing chain and one `.p8` key per process.
    struct Keys: Sendable {
        let chain: AppleTestChain
        let p8: P256PrivateKey
        static let shared = Task<Keys, any Error> {
            try await Keys(chain: AppleTestChain.generate(), p8: P256PrivateKey.generate())
        }
        static func get() async throws -> Keys { try await shared.value }
    }

    /// The stand-in: `/production/...` and `/sandbox/...` play Apple's two hosts.
    final class StandIn: @unchecked Sendable {
        let server: Server
        private let lock = NSLock()
        private var log: [String] = []

        init(keys: Keys) throws {
            let router = Router()
            var configuration = ServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.threads = 2
            server = Server(configuration: configuration, responder: Responder(router: router, errorLog: { _ in }))
            for environment in ["production", "sandbox"] {
                router.get("/\(environment)/inApps/v1/transactions/:id", .inline { [unowned self] request, context in
                    self.answer(request, environment: environment, id: context.parameter("id"), keys: keys) { signed in
                        ["signedTransactionInfo": signed]
                    }
                })
                router.get("/\(environment)/inApps/v1/subscriptions/:id", .inline { [unowned self] request, context in
                    self.answer(request, environment: environment, id: context.parameter("id"), keys: keys) { signed in
                        let renewal = try keys.chain.sign(payload: [
                            "originalTransactionId": "1000000000000000", "autoRenewStatus": 1,
                            "environment": environment == "production" ? "Production" : "Sandbox", "signedDate": AppleTestApp.nowMilliseconds(),
                        ])
                        return [
                            "environment": environment == "production" ? "Production" : "Sandbox", "bundleId": AppleTestApp.bundleId,
                            "appAppleId": AppleTestApp.appAppleId,
                            "data": [[
                                "subscriptionGroupIdentifier": "21000001",
                                "lastTransactions": [[
                                    "originalTransactionId": "1000000000000000", "status": 1,
                                    "signedTransactionInfo": signed, "signedRenewalInfo": renewal,
                                ]],
                            ]],
                        ]
                    }
                })
            }
            try server.start()
        }

        func base(_ prefix: String) -> URL { URL(string: "http://127.0.0.1:\(server.port)/\(prefix)")! }
        /// Every request seen, as `environment id status`.
        var requests: [String] { lock.withLock { log } }
        func stop() async { await server.stop(grace: 1) }

        private func answer(
            _ request: Request, environment: String, id: String, keys: Keys, body: (String) throws -> [String: Any]
        ) -> Response {
            let response = respond(request, environment: environment, id: id, keys: keys, body: body)
            lock.withLock { log.append("\(environment) \(id) \(response.status)") }
            return response
        }

        private func respond(
            _ request: Request, environment: String, id: String, keys: Keys, body: (String) throws -> [String: Any]
        ) -> Response {
            guard Self.authorized(request.bearerToken, key: keys.p8.publicKey) else {
                return json(["errorCode": 401, "errorMessage": "Unauthenticated"], status: 401)
            }
            switch id {
            case AppStoreServerAPITests.rateLimitedId:
                var response = json(["errorCode": 4290000, "errorMessage": "Rate limit exceeded."], status: 429)
                response.headers.set("Retry-After", "7")
                return response
            case AppStoreServerAPITests.failingId:
                return json(["errorCode": 5000000, "errorMessage": "An unknown error occurred."], status: 500)
            case AppStoreServerAPITests.productionId where environment == "production",
                 AppStoreServerAPITests.sandboxOnlyId where environment == "sandbox":
                do {
                    let signed = try keys.chain.sign(payload: AppleTestApp.transaction([
                        "transactionId": id, "originalTransactionId": "1000000000000000",
                        "environment": environment == "production" ? "Production" : "Sandbox",
                    ]))
                    return json(try body(signed), status: 200)
                } catch {
                    return json(["errorMessage": "\(error)"], status: 500)
                }
            default:
                return json(["errorCode": 4040010, "errorMessage": "Transaction id not found."], status: 404)
            }
        }

        /// What Apple checks: ES256 with the key's public half, `kid`, `typ`, `iss`, `aud`,
        /// `bid`, an `exp` in the future and at most an hour after `iat`.
        static func authorized(_ token: String?, key: P256PublicKey) -> Bool {
            guard let token, let jws = try? JWS.verifyES256(compact: token, publicKey: key),
                  jws.header.kid == keyId, jws.header.typ == "JWT",
                  let claims = try? jws.claims(),
                  claims["iss"] as? String == issuerId,
                  claims["aud"] as? String == "appstoreconnect-v1",
                  claims["bid"] as? String == AppleTestApp.bundleId,
                  let iat = (claims["iat"] as? NSNumber)?.int64Value, let exp = (claims["exp"] as? NSNumber)?.int64Value
            else { return false }
            let now = Int64(Date().timeIntervalSince1970)
            return iat <= now + 60 && exp > now && exp - iat <= 3600
        }

        private func json(_ object: [String: Any], status: Int) -> Response {
            .json(raw: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), status: status)
        }
    }

    static func credentials(_ keys: Keys, pem: String? = nil) -> AppStoreCredentials {
        AppStoreCredentials(issuerId: issuerId, keyId: keyId, privateKeyPEM: pem ?? keys.p8.pemRepresentation, bundleId: AppleTestApp.bundleId)
    }

    static func client(
        _ standIn: StandIn, keys: Keys, clock: any GatehouseCore.Clock = SystemClock(), pem: String? = nil
    ) -> AppStoreServerAPI {
        AppStoreServerAPI(
            credentials: credentials(keys, pem: pem), http: CurlHTTPClient(), clock: clock,
            productionURL: standIn.base("production"), sandboxURL: standIn.base("sandbox"))
    }

    /// A production-mode tenant that trusts only Apple's root and the test chain's root.
    static func verifier(_ keys: Keys) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            bundleId: AppleTestApp.bundleId, appAppleId: AppleTestApp.appAppleId, allowsTestEnvironments: false,
            trustedRoots: [AppleRootCertificate.pinned(), keys.chain.root])
    }

    static func expectAPIError(
        _ expected: AppStoreAPIError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(expected), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as AppStoreAPIError {
            #expect(error == expected, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func tokenHeaderAndClaimsAreExactAndTheSignatureVerifies() async throws {
        let keys = try await Keys.get()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600.75))
        let api = AppStoreServerAPI(credentials: Self.credentials(keys), http: UnimplementedOutboundHTTP(), clock: clock)
        let token = try api.authorizationToken()
        let jws = try JWS.verifyES256(compact: token, publicKey: keys.p8.publicKey)
        #expect(String(decoding: jws.headerJSON, as: UTF8.self) == #"{"alg":"ES256","kid":"2X9R4HXF34","typ":"JWT"}"#)
        #expect(
            String(decoding: jws.payload, as: UTF8.self)
                == #"{"aud":"appstoreconnect-v1","bid":"com.example.gatehouse","exp":1767225900,"iat":1767225600,"iss":"57246542-96fe-1a63-e053-0824d011072a"}"#
        )
        #expect(jws.signature.count == 64)
        // Another key's public half does not verify it.
        #expect(throws: JWTError.badSignature) { try JWS.verifyES256(compact: token, publicKey: P256PrivateKey.generate().publicKey) }
        // The clock moves the claims.
        clock.advance(by: 60)
        let later = try JWS.decode(compact: api.authorizationToken()).claims()
        #expect((later["iat"] as? NSNumber)?.int64Value == 1_767_225_660)
        #expect((later["exp"] as? NSNumber)?.int64Value == 1_767_225_960)
    }

    @Test func aKeyThatIsNotP256PEMIsInvalidCredentials() async throws {
        let keys = try await Keys.get()
        let api = AppStoreServerAPI(
            credentials: Self.credentials(keys, pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
            http: UnimplementedOutboundHTTP(), clock: SystemClock())
        #expect(throws: AppStoreAPIError.self) { try api.authorizationToken() }
        await Self.expectAPIError(.invalidCredentials("the .p8 key is not an EC P-256 PEM private key")) {
            _ = try await api.transactionInfo(id: Self.productionId)
        }
    }

    @Test func productionTransactionIsServedByProductionAndVerifies() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        let result = try await Self.client(standIn, keys: keys).transactionInfo(id: Self.productionId)
        #expect(result.environment == .production)
        #expect(standIn.requests == ["production \(Self.productionId) 200"])
        let payload = try Self.verifier(keys).verifyTransaction(result.signedTransaction)
        #expect(payload.transactionId == Self.productionId)
        #expect(payload.environment == .production)
        #expect(payload.bundleId == AppleTestApp.bundleId)
        await standIn.stop()
    }

    @Test func sandboxOnlyTransactionFallsBackToSandboxAfterA404() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        let result = try await Self.client(standIn, keys: keys).transactionInfo(id: Self.sandboxOnlyId)
        #expect(result.environment == .sandbox)
        #expect(standIn.requests == ["production \(Self.sandboxOnlyId) 404", "sandbox \(Self.sandboxOnlyId) 200"])
        let payload = try Self.verifier(keys).verifyTransaction(result.signedTransaction)
        #expect(payload.transactionId == Self.sandboxOnlyId)
        #expect(payload.environment == .sandbox)
        await standIn.stop()
    }

    @Test func unknownEverywhereIsNotFoundWithApplesErrorCode() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        await Self.expectAPIError(.notFound(errorCode: 4_040_010)) {
            _ = try await Self.client(standIn, keys: keys).transactionInfo(id: Self.unknownId)
        }
        #expect(standIn.requests == ["production \(Self.unknownId) 404", "sandbox \(Self.unknownId) 404"])
        #expect(AppStoreAPIError.notFound(errorCode: 4_040_010).isRetryable == false)
        await standIn.stop()
    }

    @Test func unauthorizedIsTypedAndDoesNotFallBack() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        // Signed with a key Apple does not know.
        let otherKey = try P256PrivateKey.generate().pemRepresentation
        await Self.expectAPIError(.unauthorized) {
            _ = try await Self.client(standIn, keys: keys, pem: otherKey).transactionInfo(id: Self.sandboxOnlyId)
        }
        // The right key, but a token that expired an hour ago.
        let stale = ManualClock(Date().addingTimeInterval(-3600))
        await Self.expectAPIError(.unauthorized) {
            _ = try await Self.client(standIn, keys: keys, clock: stale).subscriptionStatuses(transactionId: Self.sandboxOnlyId)
        }
        #expect(standIn.requests == ["production \(Self.sandboxOnlyId) 401", "production \(Self.sandboxOnlyId) 401"])
        #expect(AppStoreAPIError.unauthorized.isRetryable == false)
        await standIn.stop()
    }

    @Test func serverErrorIsRetryableAndDoesNotFallBack() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        await Self.expectAPIError(.server(status: 500)) {
            _ = try await Self.client(standIn, keys: keys).transactionInfo(id: Self.failingId)
        }
        #expect(standIn.requests == ["production \(Self.failingId) 500"])
        #expect(AppStoreAPIError.server(status: 500).isRetryable)
        await standIn.stop()
    }

    @Test func rateLimitCarriesRetryAfter() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        await Self.expectAPIError(.rateLimited(retryAfter: 7)) {
            _ = try await Self.client(standIn, keys: keys).transactionInfo(id: Self.rateLimitedId)
        }
        #expect(standIn.requests == ["production \(Self.rateLimitedId) 429"])
        #expect(AppStoreAPIError.rateLimited(retryAfter: 7).isRetryable)
        // Retry-After may also be an HTTP-date.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600))  // Thu, 01 Jan 2026 00:00:00 GMT
        let api = AppStoreServerAPI(credentials: Self.credentials(keys), http: UnimplementedOutboundHTTP(), clock: clock)
        #expect(api.retryAfter("Thu, 01 Jan 2026 00:01:30 GMT") == 90)
        #expect(api.retryAfter("soon") == nil)
        #expect(api.retryAfter(nil) == nil)
        await standIn.stop()
    }

    @Test func networkFailureIsRetryable() async throws {
        let keys = try await Keys.get()
        // Port 9 (discard) on loopback: nothing listens, so the connection is refused.
        let api = AppStoreServerAPI(
            credentials: Self.credentials(keys), http: CurlHTTPClient(), clock: SystemClock(),
            overrideURL: URL(string: "http://127.0.0.1:9")!)
        do {
            _ = try await api.transactionInfo(id: Self.productionId)
            Issue.record("expected a network error")
        } catch let error as AppStoreAPIError {
            guard case .network = error else { Issue.record("expected .network, got \(error)"); return }
            #expect(error.isRetryable)
        }
    }

    @Test(arguments: ["", "12a4", "-1", "1/../2", "１２３", "123 ", "0x10", String(repeating: "1", count: 65)])
    func nonDigitTransactionIdIsRefusedBeforeAnyRequest(id: String) async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        let api = Self.client(standIn, keys: keys)
        await Self.expectAPIError(.invalidTransactionId(id)) { _ = try await api.transactionInfo(id: id) }
        await Self.expectAPIError(.invalidTransactionId(id)) { _ = try await api.subscriptionStatuses(transactionId: id) }
        #expect(standIn.requests.isEmpty)
        await standIn.stop()
    }

    @Test func subscriptionStatusesFallBackAndTheirSignedDataVerifies() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        let api = Self.client(standIn, keys: keys)
        let production = try await api.subscriptionStatuses(transactionId: Self.productionId)
        let sandbox = try await api.subscriptionStatuses(transactionId: Self.sandboxOnlyId)
        #expect(standIn.requests == [
            "production \(Self.productionId) 200", "production \(Self.sandboxOnlyId) 404", "sandbox \(Self.sandboxOnlyId) 200",
        ])
        let verifier = try Self.verifier(keys)
        for (groups, environment) in [(production, AppStoreEnvironment.production), (sandbox, .sandbox)] {
            #expect(groups.map(\.subscriptionGroupIdentifier) == ["21000001"])
            let last = try #require(groups.first?.lastTransactions.first)
            #expect(last.status == 1)
            #expect(last.originalTransactionId == "1000000000000000")
            let transaction = try verifier.verifyTransaction(last.signedTransactionInfo)
            #expect(transaction.environment == environment)
            #expect(transaction.originalTransactionId == "1000000000000000")
            let renewal = try verifier.verifyRenewalInfo(last.signedRenewalInfo)
            #expect(renewal.environment == environment)
            #expect(renewal.autoRenewStatus == 1)
        }
        await standIn.stop()
    }

    @Test func overrideURLReplacesBothHostsAndComesFromTheEnvironment() async throws {
        let keys = try await Keys.get()
        let standIn = try StandIn(keys: keys)
        let override = standIn.base("sandbox")
        let api = AppStoreServerAPI(
            credentials: Self.credentials(keys), http: CurlHTTPClient(), clock: SystemClock(),
            overrideURL: override)
        #expect(api.productionURL == override)
        #expect(api.sandboxURL == override)
        // Apple's hosts are never contacted: the first (production) attempt lands on the override.
        let result = try await api.transactionInfo(id: Self.sandboxOnlyId)
        #expect(try Self.verifier(keys).verifyTransaction(result.signedTransaction).environment == .sandbox)
        #expect(standIn.requests == ["sandbox \(Self.sandboxOnlyId) 200"])

        let defaults = AppStoreServerAPI(credentials: Self.credentials(keys), http: UnimplementedOutboundHTTP(), clock: SystemClock())
        #expect(defaults.productionURL.absoluteString == "https://api.storekit.itunes.apple.com")
        #expect(defaults.sandboxURL.absoluteString == "https://api.storekit-sandbox.itunes.apple.com")
        await standIn.stop()
    }
}
