import Foundation
import GatehouseWire
import GatehouseClientCore
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private typealias E = DatacoveWire.Endpoints

/// Passwordless sign-in (phone or email one-time code), the profile, devices and account deletion.
///
/// Verify and activate store the returned pair; every authenticated call goes through `session`.
public struct AuthClient: Sendable {
    /// The session manager that holds the tokens and refreshes them.
    public let session: SessionManager
    let http: HTTPClient
    let apiKey: String
    let deviceName: String?

    /// A client for `baseURL` (ending in `/api`) using the platform `apiKey`, which is never logged.
    public init(
        baseURL: URL, apiKey: String, tokenStore: any TokenStore, transport: any Transport = URLSessionTransport(),
        appVersion: String? = nil, deviceName: String? = nil, refreshMargin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }, logger: (@Sendable (String) -> Void)? = nil
    ) {
        let http = AuthHTTP.client(baseURL: baseURL, transport: transport, appVersion: appVersion, logger: logger)
        self.http = http
        self.apiKey = apiKey
        self.deviceName = deviceName
        session = SessionManager(http: http, store: tokenStore, refreshMargin: refreshMargin, now: now)
    }

    /// Texts a six-digit code to `phone` (E.164); `name` names a new account. A repeat within 60 s answers 429.
    public func requestMobileOtp(phone: String, name: String? = nil) async throws {
        let body = DatacoveWire.PhoneCodeRequest(phoneNumber: phone, name: name)
        try await http.success(keyed(try AuthHTTP.request(E.requestPhoneCode, body: body)))
    }

    /// Exchanges the texted code for a token pair and stores it.
    @discardableResult
    public func verifyMobileOtp(phone: String, otp: String) async throws -> TokenPair {
        let body = DatacoveWire.PhoneCodeCheck(phoneNumber: phone, otp: otp)
        return try await signIn(try AuthHTTP.request(E.verifyPhoneCode, body: body))
    }

    /// Emails a six-digit code to `email`; `name` names a new account. A repeat within 60 s answers 429.
    public func requestEmailOtp(email: String, name: String? = nil) async throws {
        let body = DatacoveWire.EmailCodeRequest(email: email, name: name)
        try await http.success(keyed(try AuthHTTP.request(E.requestEmailCode, body: body)))
    }

    /// Exchanges the emailed code for a token pair and stores it.
    @discardableResult
    public func verifyEmailOtp(email: String, otp: String) async throws -> TokenPair {
        let body = DatacoveWire.EmailCodeCheck(email: email, otp: otp)
        return try await signIn(try AuthHTTP.request(E.verifyEmailCode, body: body))
    }

    /// Moves a new account from CREATED to ACTIVE and stores the fresh pair; idempotent, so retry it when unsure.
    @discardableResult
    public func activate() async throws -> TokenPair {
        let pair = try await session.authorized(try AuthHTTP.request(E.activate), as: DatacoveWire.TokenPair.self)
            .received(at: session.now())
        try await session.save(pair)
        return pair
    }

    /// The signed-in user's profile and wallet.
    public func profile() async throws -> Profile {
        try await session.authorized(try AuthHTTP.request(E.profile), as: Profile.self)
    }

    /// Changes the name and/or time zone; `nil` leaves a field as it is.
    public func updateProfile(name: String? = nil, timezone: String? = nil) async throws -> Profile {
        let body = DatacoveWire.ProfileUpdate(name: name, timezone: timezone)
        return try await session.authorized(try AuthHTTP.request(E.updateProfile, body: body), as: Profile.self)
    }

    /// The devices signed in to this account (at most 5; a sixth sign-in ends the oldest).
    public func sessions() async throws -> [DeviceSession] {
        try await session.authorized(try AuthHTTP.request(E.sessions), as: SessionList.self).data
    }

    /// Ends one device's session, for a "signed-in devices" screen.
    public func signOut(session id: String) async throws {
        // The declaration escapes everything but unreserved characters, so an id can never reach another path.
        _ = try await session.authorizedRequest(try AuthHTTP.request(E.signOutSession, ["id": id]))
    }

    /// Ends this device's session on the server and always forgets the local tokens.
    ///
    /// Throws only when the server could not be told (offline, 5xx); the device is signed out either way.
    public func signOut() async throws {
        do {
            _ = try await session.authorizedRequest(try AuthHTTP.request(E.logout))
        } catch AuthError.signedOut {
            // The server had already ended the session; nothing is left to tell it.
        } catch {
            try await session.clearTokens()
            throw error
        }
        try await session.clearTokens()
    }

    /// Deletes the account and everything in it (the in-app deletion App Store rules require), then forgets the tokens.
    public func deleteAccount() async throws {
        _ = try await session.authorizedRequest(try AuthHTTP.request(E.deleteAccount))
        try await session.clearTokens()
    }

    /// Sends an authenticated request for another SDK module; see `SessionManager.authorizedRequest(_:)`.
    public func authorizedRequest(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await session.authorizedRequest(request)
    }

    func keyed(_ request: URLRequest) -> URLRequest {
        var request = request
        request.setValue(apiKey, forHTTPHeaderField: "x-api-key")
        return request
    }

    func signIn(_ request: URLRequest) async throws -> TokenPair {
        var request = keyed(request)
        if let deviceName { request.setValue(deviceName, forHTTPHeaderField: "X-Device-Name") }
        let pair = try await http.send(request, as: DatacoveWire.TokenPair.self).received(at: session.now())
        try await session.save(pair)
        return pair
    }
}
