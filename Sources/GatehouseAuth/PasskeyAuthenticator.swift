import Foundation
import GatehouseWire

/// What makes and uses passkeys on the device: the platform's authenticator on Apple
/// platforms (`PlatformPasskeyAuthenticator`), a software one in tests. It takes the server's
/// options and answers in WebAuthn's JSON forms.
public protocol PasskeyAuthenticator: Sendable {
    /// Makes a passkey for the options' relying party and user (registration ceremony).
    func register(_ options: DatacoveWire.PasskeyCreationOptions) async throws -> DatacoveWire.PasskeyRegistrationCredential
    /// Signs the options' challenge with a passkey the user picks, or one of `allowCredentials`.
    func assert(_ options: DatacoveWire.PasskeyRequestOptions) async throws -> DatacoveWire.PasskeyAssertionCredential
}

extension AuthClient {
    /// Makes a passkey with `authenticator` for the signed-in account and registers it as `name`.
    @discardableResult
    public func registerPasskey(name: String, using authenticator: any PasskeyAuthenticator) async throws -> DatacoveWire.PasskeyInfo {
        let options = try await passkeyCreationOptions()
        return try await registerPasskey(name: name, credential: try await authenticator.register(options))
    }

    /// Signs in with a passkey and stores the pair, as a code's sign-in does: discoverable (the
    /// user picks the passkey), or for the account of `phone` or `email`.
    @discardableResult
    public func signInWithPasskey(using authenticator: any PasskeyAuthenticator, phone: String? = nil, email: String? = nil) async throws -> TokenPair {
        let options = try await passkeySignInOptions(phone: phone, email: email)
        return try await signInWithPasskey(try await authenticator.assert(options))
    }
}
