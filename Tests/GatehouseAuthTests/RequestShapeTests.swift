import Foundation
import GatehouseClientCore
import Testing
@testable import GatehouseAuth
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every call's method, URL, headers and body, exactly as the wire contract states them.
@Suite struct RequestShapeTests {
    private func ok(_ body: String = #"{"success":true}"#, status: Int = 200) -> RouteTransport {
        RouteTransport { _ in .init(status: status, body: body) }
    }

    @Test func requestMobileOtpSendsKeyVersionAndBody() async throws {
        let transport = ok()
        try await makeClient(store: InMemoryTokenStore(), transport: transport).requestMobileOtp(phone: "+14165550199", name: "Jane")
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/api/auth/v1/mobile/request-otp")
        #expect(request.value(forHTTPHeaderField: "x-api-key") == "pk_ios_test")
        #expect(request.value(forHTTPHeaderField: "X-App-Version") == "2.4.1")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "X-Device-Name") == nil)
        #expect(try json(request.httpBody) == json(#"{"phoneNumber":"+14165550199","name":"Jane","channel":"sms"}"#))
    }

    @Test func requestMobileOtpWithoutNameOmitsIt() async throws {
        let transport = ok()
        try await makeClient(store: InMemoryTokenStore(), transport: transport).requestMobileOtp(phone: "+14165550199")
        #expect(try json(transport.requests.first?.httpBody) == json(#"{"phoneNumber":"+14165550199","channel":"sms"}"#))
    }

    @Test func verifyMobileOtpSendsDeviceNameAndStoresThePair() async throws {
        let transport = ok(pairJSON("a1", "r1"))
        let store = InMemoryTokenStore()
        let pair = try await makeClient(store: store, transport: transport).verifyMobileOtp(phone: "+14165550199", otp: "123456")
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/api/auth/v1/mobile/verify-otp")
        #expect(request.value(forHTTPHeaderField: "x-api-key") == "pk_ios_test")
        #expect(request.value(forHTTPHeaderField: "X-Device-Name") == "Jane's iPhone")
        #expect(try json(request.httpBody) == json(#"{"phoneNumber":"+14165550199","otp":"123456","channel":"sms"}"#))
        #expect(pair == storedPair())
        #expect(try store.read() == storedPair())
    }

    @Test func emailOtpRequestAndVerify() async throws {
        let transport = RouteTransport { request in
            apiPath(request) == "auth/v1/email/request-otp" ? .init(status: 200, body: #"{"success":true}"#) : .init(status: 200, body: pairJSON("a1", "r1"))
        }
        let store = InMemoryTokenStore()
        let client = makeClient(store: store, transport: transport)
        try await client.requestEmailOtp(email: "jane@example.com", name: "Jane Doe")
        try await client.verifyEmailOtp(email: "jane@example.com", otp: "123456")
        let (request, verify) = (transport.requests[0], transport.requests[1])
        #expect(transport.paths == ["auth/v1/email/request-otp", "auth/v1/email/verify-otp"])
        #expect(request.value(forHTTPHeaderField: "x-api-key") == "pk_ios_test")
        #expect(verify.value(forHTTPHeaderField: "x-api-key") == "pk_ios_test")
        #expect(verify.value(forHTTPHeaderField: "X-Device-Name") == "Jane's iPhone")
        #expect(try json(request.httpBody) == json(#"{ "email": "jane@example.com", "name": "Jane Doe" }"#))
        #expect(try json(verify.httpBody) == json(#"{ "email": "jane@example.com", "otp": "123456" }"#))
        #expect(try store.read() == storedPair())
    }

    @Test func activateUsesBearerAndStoresTheNewPair() async throws {
        let transport = ok(pairJSON("a9", "r9"))
        let store = InMemoryTokenStore(storedPair())
        let pair = try await makeClient(store: store, transport: transport).activate()
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(apiPath(request) == "auth/v1/activate")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(request.value(forHTTPHeaderField: "x-api-key") == nil)
        #expect(pair == storedPair("a9", "r9"))
        #expect(try store.read() == storedPair("a9", "r9"))
    }

    @Test func refreshSendsOnlyTheRefreshToken() async throws {
        let transport = ok(pairJSON("a2", "r2"))
        let clock = ManualClock()
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport, clock: clock)
        clock.advance(1800)
        _ = try await client.session.validAccessToken()
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/api/auth/v1/refresh")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "x-api-key") == nil)
        #expect(request.value(forHTTPHeaderField: "X-App-Version") == "2.4.1")
        #expect(try json(request.httpBody) == json(#"{ "refreshToken": "r1" }"#))
    }

    @Test func profileAndUpdateProfile() async throws {
        let transport = ok(profileJSON)
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport)
        let profile = try await client.profile()
        _ = try await client.updateProfile(timezone: "America/Toronto")
        let (get, patch) = (transport.requests[0], transport.requests[1])
        #expect(get.httpMethod == "GET" && apiPath(get) == "users/v1/profile" && get.httpBody == nil)
        #expect(get.value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(patch.httpMethod == "PATCH" && apiPath(patch) == "users/v1/profile")
        #expect(patch.value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(try json(patch.httpBody) == json(#"{"timezone":"America/Toronto"}"#))
        #expect(profile.wallet["WALLET"] == 25 && profile.email == nil)
    }

    @Test func sessionsAndSigningOutADevice() async throws {
        let transport = RouteTransport { request in
            if request.httpMethod == "DELETE" { return .init(status: 204, body: "") }
            return .init(status: 200, body: SeedExampleTests.sessionsJSON)
        }
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport)
        let sessions = try await client.sessions()
        try await client.signOut(session: sessions[1].id)
        #expect(transport.paths == ["auth/v1/sessions", "auth/v1/sessions/sess_2"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer a1" })
        #expect(transport.requests[1].httpMethod == "DELETE")
    }

    @Test func signOutCallsLogoutAndForgetsTokens() async throws {
        let transport = ok("", status: 204)
        let store = InMemoryTokenStore(storedPair())
        try await makeClient(store: store, transport: transport).signOut()
        #expect(transport.requests.map { "\($0.httpMethod!) \(apiPath($0))" } == ["POST auth/v1/logout"])
        #expect(transport.requests[0].value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(try store.read() == nil)
    }

    @Test func signOutForgetsTokensEvenOffline() async throws {
        let transport = RouteTransport { _ in throw URLError(.notConnectedToInternet) }
        let store = InMemoryTokenStore(storedPair())
        await #expect(throws: AuthError.self) { try await makeClient(store: store, transport: transport).signOut() }
        #expect(try store.read() == nil)
    }

    @Test func deleteAccountThenForgetsTokens() async throws {
        let transport = ok("", status: 204)
        let store = InMemoryTokenStore(storedPair())
        try await makeClient(store: store, transport: transport).deleteAccount()
        #expect(transport.requests.map { "\($0.httpMethod!) \(apiPath($0))" } == ["DELETE users/v1/account"])
        #expect(try store.read() == nil)
    }

    @Test func optionalHeadersAreLeftOutWhenNotConfigured() async throws {
        let transport = ok(pairJSON("a1", "r1"))
        let client = makeClient(store: InMemoryTokenStore(), transport: transport, appVersion: nil, deviceName: nil)
        try await client.verifyMobileOtp(phone: "+14165550199", otp: "123456")
        #expect(transport.requests[0].value(forHTTPHeaderField: "X-App-Version") == nil)
        #expect(transport.requests[0].value(forHTTPHeaderField: "X-Device-Name") == nil)
    }

    @Test func rateLimitCarriesRetryAfter() async throws {
        let transport = RouteTransport { _ in
            .init(status: 429, body: errorJSON(429, code: "RATE_LIMITED", message: "Wait a minute."), headers: ["Retry-After": "42"])
        }
        await #expect(throws: AuthError.api(status: 429, code: .rateLimited, message: "Wait a minute.", retryAfter: 42)) {
            try await makeClient(store: InMemoryTokenStore(), transport: transport).requestEmailOtp(email: "jane@example.com")
        }
    }

    @Test func wrongCodeKeepsNothingAndReportsTheCode() async throws {
        let transport = RouteTransport { _ in .init(status: 400, body: errorJSON(400, code: "OTP_INVALID")) }
        let store = InMemoryTokenStore()
        await #expect(throws: AuthError.api(status: 400, code: .otpInvalid, message: "Nope.", retryAfter: nil)) {
            try await makeClient(store: store, transport: transport).verifyMobileOtp(phone: "+14165550199", otp: "000000")
        }
        #expect(try store.read() == nil)
    }

    @Test func authorizedRequestResolvesRelativePathsAndKeepsCallerHeaders() async throws {
        let transport = ok(#"{"ok":true}"#)
        let client = makeClient(store: InMemoryTokenStore(storedPair()), transport: transport)
        var request = URLRequest(url: URL(string: "workflows/v1/1/20?featured=true")!)
        request.httpMethod = "GET"
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        let (data, response) = try await client.authorizedRequest(request)
        let sent = try #require(transport.requests.first)
        #expect(sent.url?.absoluteString == "http://127.0.0.1:8080/api/workflows/v1/1/20?featured=true")
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(sent.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(response.statusCode == 200 && String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
    }
}
