import Foundation
import GatehouseCore
import GatehouseOutbound
import GatehouseFormats
import GatehouseTesting
import Testing
@testable import GatehouseCommerceEngine

/// The service account's JWT bearer grant, against a token endpoint whose assertions
/// google-auth's own `jwt.decode` checks: one fetch per tenant and key while a token lasts,
/// shared by callers who arrive meanwhile, and a refusal told apart from an outage.
@Suite(.serialized) struct GoogleAccessTokenTests {
    static func key(_ file: GoogleServiceAccountKeyFile) throws -> ServiceAccountKey {
        try #require(ServiceAccountKey.parse(file.json)?.key)
    }

    @Test func googleAuthAcceptsTheAssertionAndATokenIsFetchedOnceWhileItLasts() async throws {
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        let file = try GoogleServiceAccountKeyFile.generate()
        try await google.register(file)
        // Google checks iat and exp against the real time: the manual clock starts in the past,
        // and tokens last two minutes, so moving past one's expiry stays behind the real time.
        let clock = ManualClock(Date().addingTimeInterval(-100))
        try await google.issueTokens(lasting: 120)
        let tokens = GoogleAccessTokens(tokenURL: google.tokenURL, http: CurlHTTPClient(), clock: clock)
        let key = try Self.key(file)

        let fetched: Set<String>
        do {
            fetched = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 { group.addTask { try await tokens.token(tenantID: "t1", key: key) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
        } catch {
            Issue.record("\(error): \(try await google.log())")
            return
        }
        #expect(fetched.count == 1 && fetched.first?.hasPrefix("ya29.") == true)
        var log = try await google.log()
        #expect(log.count == 1)
        let grant = try #require(log.first)
        #expect(grant.status == 200 && grant.grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer" && grant.alg == "RS256")
        #expect(grant.kid == file.privateKeyID && grant.iss == file.clientEmail && grant.lifetime == 3600)
        #expect(grant.scope == "https://www.googleapis.com/auth/androidpublisher")

        // Kept until a minute before it expires: another tenant gets its own.
        clock.advance(by: 59)
        #expect(try await tokens.token(tenantID: "t1", key: key) == fetched.first)
        _ = try await tokens.token(tenantID: "t2", key: key)
        #expect(try await google.log().count == 2)
        clock.advance(by: 1)
        let renewed = try await tokens.token(tenantID: "t1", key: key)
        log = try await google.log()
        #expect(log.count == 3 && renewed != fetched.first)

        // A new key for the tenant is a new grant at once.
        let rotated = try GoogleServiceAccountKeyFile.generate(clientEmail: "rotated@gatehouse-test.iam.gserviceaccount.com", distinctFrom: [file])
        try await google.register(rotated)
        _ = try await tokens.token(tenantID: "t1", key: try Self.key(rotated))
        #expect(try await google.log().last?.iss == rotated.clientEmail)
    }

    @Test func aRefusedGrantIsFinalAndAnOutageIsRetryable() async throws {
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        let known = try GoogleServiceAccountKeyFile.generate()
        try await google.register(known)
        let tokens = GoogleAccessTokens(tokenURL: google.tokenURL, http: CurlHTTPClient(), clock: SystemClock())

        // Google knows the account under another key: the signature does not verify.
        let impostor = try GoogleServiceAccountKeyFile.generate(clientEmail: known.clientEmail, distinctFrom: [known])
        await #expect(throws: GoogleAPIError.grantRefused(status: 400, error: "invalid_grant")) {
            try await tokens.token(tenantID: "t1", key: try Self.key(impostor))
        }
        #expect(try await google.log().last?.error?.isEmpty == false)

        try await google.failTokens(with: 503)
        do {
            _ = try await tokens.token(tenantID: "t1", key: try Self.key(known))
            Issue.record("a 503 gave a token")
        } catch let error as GoogleAPIError {
            #expect(error == .unavailable(status: 503) && error.isRetryable)
        }
        // Nothing cached from a failure: the next call, once Google answers, gets a token.
        try await google.failTokens(with: nil)
        #expect(try await tokens.token(tenantID: "t1", key: try Self.key(known)).hasPrefix("ya29."))

        await google.shutdown()
        do {
            _ = try await GoogleAccessTokens(tokenURL: google.tokenURL, http: CurlHTTPClient(), clock: SystemClock())
                .token(tenantID: "t1", key: try Self.key(known))
            Issue.record("a stopped endpoint gave a token")
        } catch let error as GoogleAPIError {
            #expect(error.isRetryable, "\(error)")
        }
    }
}

/// Google's three endpoints, when they never answer or redirect: each call ends by its own
/// deadline as a retryable failure, and a redirect is not followed.
@Suite struct GoogleUnansweredTests {
    @Test func aSilentGoogleEndsByTheDeadlineAndARedirectIsNotFollowed() async throws {
        let upstream = try await HostileUpstream.start()
        defer { upstream.stop() }
        let google = try await GoogleStandIn.start()
        defer { google.stop() }
        let file = try GoogleServiceAccountKeyFile.generate()
        try await google.register(file)
        let key = try GoogleAccessTokenTests.key(file)
        let started = Date()
        async let grant: GoogleAPIError? = {
            do {
                _ = try await GoogleAccessTokens(tokenURL: upstream.url("/silent/token"), http: CurlHTTPClient(), clock: SystemClock())
                    .token(tenantID: "t1", key: key)
                return nil
            } catch let error as GoogleAPIError { return error }
        }()
        async let read: GoogleAPIError? = {
            do {
                _ = try await GooglePlayAPI(baseURL: upstream.url("/silent"), packageName: "com.example.gatehouse", token: { _ in "ya29.x" }, http: CurlHTTPClient())
                    .subscription(purchaseToken: "token")
                return nil
            } catch let error as GoogleAPIError { return error }
        }()
        // The voided-purchases backstop and an acknowledgement: the same deadline.
        let silentAPI = GooglePlayAPI(baseURL: upstream.url("/silent"), packageName: "com.example.gatehouse", token: { _ in "ya29.x" }, http: CurlHTTPClient())
        async let voided: GoogleAPIError? = {
            do {
                _ = try await silentAPI.voidedPurchases(since: Date().addingTimeInterval(-86_400), pageToken: nil)
                return nil
            } catch let error as GoogleAPIError { return error }
        }()
        async let acknowledged: GoogleAPIError? = {
            do {
                try await silentAPI.acknowledgeSubscription("pro", purchaseToken: "token")
                return nil
            } catch let error as GoogleAPIError { return error }
        }()
        async let certificates: PushTokenRefusal? = {
            do {
                _ = try await GooglePushTokens(certificatesURL: upstream.url("/silent/certs"), http: CurlHTTPClient(), clock: SystemClock())
                    .verify(try await google.pushToken(audience: "a", email: "e@x.y"), audience: "a", serviceAccountEmail: "e@x.y")
                return nil
            } catch let error as PushTokenRefusal { return error }
        }()
        let (grantError, readError, certificatesError) = try await (grant, read, certificates)
        let (voidedError, acknowledgeError) = try await (voided, acknowledged)
        #expect(grantError?.isRetryable == true, "\(String(describing: grantError))")
        #expect(readError?.isRetryable == true, "\(String(describing: readError))")
        #expect(voidedError?.isRetryable == true && acknowledgeError?.isRetryable == true)
        #expect(certificatesError == .certificatesUnavailable)
        #expect(Date().timeIntervalSince(started) < 60)

        // A redirect to the real token endpoint is not followed: Google's side never sees the grant.
        let redirect = upstream.url("/redirect?to=" + PercentEncoding.escaped(google.tokenURL.absoluteString))
        await #expect(throws: GoogleAPIError.self) {
            try await GoogleAccessTokens(tokenURL: redirect, http: CurlHTTPClient(), clock: SystemClock()).token(tenantID: "t1", key: key)
        }
        #expect(try await google.log().filter { $0.path == "/token" }.isEmpty)
    }
}
