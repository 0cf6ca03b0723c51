import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private typealias E = DatacoveWire.Endpoints

/// Passkeys over the wire: the options a platform authenticator needs and what it answers, in
/// WebAuthn's JSON forms (binary fields base64url).
extension AuthClient {
    /// Options to make a passkey for the signed-in account (a challenge for one answer, five minutes).
    public func passkeyCreationOptions() async throws -> DatacoveWire.PasskeyCreationOptions {
        try await session.authorized(try AuthHTTP.request(E.passkeyCreationOptions), as: DatacoveWire.PasskeyCreationOptions.self)
    }

    /// Registers the passkey the authenticator made from the creation options, under `name`.
    @discardableResult
    public func registerPasskey(name: String, credential: DatacoveWire.PasskeyRegistrationCredential) async throws -> DatacoveWire.PasskeyInfo {
        let body = DatacoveWire.PasskeyRegistration(name: name, credential: credential)
        return try await session.authorized(try AuthHTTP.request(E.registerPasskey, body: body), as: DatacoveWire.PasskeyInfo.self)
    }

    /// The account's passkeys, oldest first.
    public func passkeys() async throws -> [DatacoveWire.PasskeyInfo] {
        try await session.authorized(try AuthHTTP.request(E.passkeys), as: DatacoveWire.PasskeyList.self).passkeys
    }

    /// Renames one of the account's passkeys.
    @discardableResult
    public func renamePasskey(id: String, name: String) async throws -> DatacoveWire.PasskeyInfo {
        try await session.authorized(try AuthHTTP.request(E.renamePasskey, ["id": id], body: DatacoveWire.PasskeyRename(name: name)), as: DatacoveWire.PasskeyInfo.self)
    }

    /// Deletes one of the account's passkeys; the server asks for a sign-in of the last ten minutes.
    public func deletePasskey(id: String) async throws {
        _ = try await session.authorizedRequest(try AuthHTTP.request(E.deletePasskey, ["id": id]))
    }

    /// Options to sign in with a passkey: discoverable (no argument), or for the account of `phone` or `email`.
    public func passkeySignInOptions(phone: String? = nil, email: String? = nil) async throws -> DatacoveWire.PasskeyRequestOptions {
        let body = DatacoveWire.PasskeySignInOptionsRequest(phoneNumber: phone, email: email)
        return try await http.send(keyed(try AuthHTTP.request(E.passkeySignInOptions, body: body)), as: DatacoveWire.PasskeyRequestOptions.self)
    }

    /// Signs in with the authenticator's assertion and stores the pair, as a code's sign-in does.
    @discardableResult
    public func signInWithPasskey(_ credential: DatacoveWire.PasskeyAssertionCredential) async throws -> TokenPair {
        try await signIn(try AuthHTTP.request(E.passkeySignIn, body: DatacoveWire.PasskeySignIn(credential: credential)))
    }
}
