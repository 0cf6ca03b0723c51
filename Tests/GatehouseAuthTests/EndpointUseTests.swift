import Foundation
import GatehouseClientCore
import GatehouseWire
import Testing
@testable import GatehouseAuth

/// Every call of `AuthClient` goes where its one declaration in `DatacoveWire.Endpoints` puts
/// it, with the declared method (the literal URLs are `RequestShapeTests`').
@Suite struct EndpointUseTests {
    static let endpoints = DatacoveWire.Endpoints.self

    @Test func everyCallIsADeclaredEndpoint() async throws {
        let transport = RouteTransport { request in
            switch apiPath(request) {
            case "users/v1/profile": return .init(status: 200, body: profileJSON)
            case "auth/v1/sessions": return .init(status: 200, body: SeedExampleTests.sessionsJSON)
            case "auth/v1/activate", "auth/v1/mobile/verify-otp", "auth/v1/email/verify-otp", "auth/v1/passkeys/sign-in":
                return .init(status: 200, body: pairJSON("a1", "r1"))
            case "auth/v1/passkeys/registration-options": return .init(status: 200, body: Self.creationJSON)
            case "auth/v1/passkeys/sign-in-options": return .init(status: 200, body: Self.requestJSON)
            case "auth/v1/passkeys" where request.httpMethod == "GET": return .init(status: 200, body: #"{"passkeys":[\#(Self.passkeyJSON)]}"#)
            case let path where path.hasPrefix("auth/v1/passkeys") && request.httpMethod != "DELETE": return .init(status: 200, body: Self.passkeyJSON)
            case let path where request.httpMethod == "DELETE" || path == "auth/v1/logout": return .init(status: 204, body: "")
            default: return .init(status: 200, body: #"{"success":true}"#)
            }
        }
        let client = makeClient(store: InMemoryTokenStore(), transport: transport)
        try await client.requestMobileOtp(phone: "+14165550199")
        try await client.verifyMobileOtp(phone: "+14165550199", otp: "123456")
        try await client.requestEmailOtp(email: "jane@example.com")
        try await client.verifyEmailOtp(email: "jane@example.com", otp: "123456")
        try await client.activate()
        _ = try await client.profile()
        _ = try await client.updateProfile(name: "Jane")
        _ = try await client.sessions()
        try await client.signOut(session: "sess 2/x")
        _ = try await client.passkeyCreationOptions()
        let registration = DatacoveWire.PasskeyRegistrationCredential(id: "AQ", rawId: "AQ", response: .init(clientDataJSON: "e30", attestationObject: "oA"))
        try await client.registerPasskey(name: "iPhone", credential: registration)
        _ = try await client.passkeys()
        try await client.renamePasskey(id: "pk 1/x", name: "Work")
        try await client.deletePasskey(id: "pk 1/x")
        _ = try await client.passkeySignInOptions(phone: "+14165550199")
        try await client.signInWithPasskey(.init(id: "AQ", rawId: "AQ", response: .init(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA", userHandle: nil)))
        try await client.deleteAccount()
        let expected: [(RequestMethod, String)] = [
            (Self.endpoints.requestPhoneCode.method, Self.endpoints.requestPhoneCode.path()),
            (Self.endpoints.verifyPhoneCode.method, Self.endpoints.verifyPhoneCode.path()),
            (Self.endpoints.requestEmailCode.method, Self.endpoints.requestEmailCode.path()),
            (Self.endpoints.verifyEmailCode.method, Self.endpoints.verifyEmailCode.path()),
            (Self.endpoints.activate.method, Self.endpoints.activate.path()),
            (Self.endpoints.profile.method, Self.endpoints.profile.path()),
            (Self.endpoints.updateProfile.method, Self.endpoints.updateProfile.path()),
            (Self.endpoints.sessions.method, Self.endpoints.sessions.path()),
            (Self.endpoints.signOutSession.method, Self.endpoints.signOutSession.path(["id": "sess 2/x"])),
            (Self.endpoints.passkeyCreationOptions.method, Self.endpoints.passkeyCreationOptions.path()),
            (Self.endpoints.registerPasskey.method, Self.endpoints.registerPasskey.path()),
            (Self.endpoints.passkeys.method, Self.endpoints.passkeys.path()),
            (Self.endpoints.renamePasskey.method, Self.endpoints.renamePasskey.path(["id": "pk 1/x"])),
            (Self.endpoints.deletePasskey.method, Self.endpoints.deletePasskey.path(["id": "pk 1/x"])),
            (Self.endpoints.passkeySignInOptions.method, Self.endpoints.passkeySignInOptions.path()),
            (Self.endpoints.passkeySignIn.method, Self.endpoints.passkeySignIn.path()),
            (Self.endpoints.deleteAccount.method, Self.endpoints.deleteAccount.path()),
        ]
        let sent = transport.requests.map { "\($0.httpMethod ?? "") \($0.url.map { $0.absoluteString.dropFirst(baseURL.absoluteString.count - 4) } ?? "")" }
        #expect(sent == expected.map { "\($0.0.rawValue) \($0.1)" })
    }

    static let passkeyJSON = #"{"id":"AQ","name":"iPhone","createdAt":"2026-12-01T10:00:00.000Z","lastUsedAt":null,"backedUp":true}"#
    static let requestJSON = #"{"challenge":"AAAA","rpId":"id.example","timeout":300000,"userVerification":"required","allowCredentials":[]}"#
    static let creationJSON = """
        {"rp":{"id":"id.example","name":"Example"},"user":{"id":"AAAA","name":"+14165550199","displayName":"+14165550199"},"challenge":"AAAA",
        "pubKeyCredParams":[{"type":"public-key","alg":-7}],"timeout":300000,"excludeCredentials":[],
        "authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},"attestation":"none",
        "extensions":{"credProps":true}}
        """
}
