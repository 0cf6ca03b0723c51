import Foundation
import GatehouseAuth
import GatehouseCrypto
import GatehouseFormats
import GatehouseTesting
import GatehouseWire

/// The SDK's `PasskeyAuthenticator` in software, for tests: `SoftwareAuthenticator`'s
/// passkeys of one algorithm, answering the server's options in WebAuthn's JSON forms, as a
/// platform authenticator answers an app.
public final class SoftwarePasskeyAuthenticator: PasskeyAuthenticator, @unchecked Sendable {
    public let authenticator = SoftwareAuthenticator()
    public let algorithm: SoftwareAuthenticator.Algorithm
    public let origin: String
    private let lock = NSLock()

    public init(algorithm: SoftwareAuthenticator.Algorithm, origin: String) {
        self.algorithm = algorithm
        self.origin = origin
    }

    public func register(_ options: DatacoveWire.PasskeyCreationOptions) async throws -> DatacoveWire.PasskeyRegistrationCredential {
        let response = try lock.withLock {
            try authenticator.register(
                algorithm: algorithm, rpID: options.rp.id, origin: origin, challenge: Base64URL.decode(options.challenge) ?? [],
                userHandle: Base64URL.decode(options.user.id) ?? []).response
        }
        return .init(id: response.id, rawId: Base64URL.encode(response.rawID), response: .init(
            clientDataJSON: Base64URL.encode(response.clientDataJSON), attestationObject: Base64URL.encode(response.attestationObject)))
    }

    /// Answers with the newest passkey the options allow (any of the relying party's when they list none).
    public func assert(_ options: DatacoveWire.PasskeyRequestOptions) async throws -> DatacoveWire.PasskeyAssertionCredential {
        let allowed = Set(options.allowCredentials.map(\.id))
        let assertion = try lock.withLock { () -> WebAuthnRelyingParty.Assertion in
            guard let credential = authenticator.credentials.last(where: { $0.rpID == options.rpId && (allowed.isEmpty || allowed.contains(Base64URL.encode($0.id))) })
            else { throw TestSetupError("no passkey for \(options.rpId)") }
            return try authenticator.assert(credential, origin: origin, challenge: Base64URL.decode(options.challenge) ?? [])
        }
        return .init(id: assertion.id, rawId: Base64URL.encode(assertion.rawID), response: .init(
            clientDataJSON: Base64URL.encode(assertion.clientDataJSON), authenticatorData: Base64URL.encode(assertion.authenticatorData),
            signature: Base64URL.encode(assertion.signature), userHandle: assertion.userHandle.map(Base64URL.encode)))
    }
}
