#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation
import GatehouseFormats
import GatehouseWire

/// The platform's passkeys (iCloud Keychain) through AuthenticationServices: registration and
/// assertion with `ASAuthorizationPlatformPublicKeyCredentialProvider`, and on iOS 16 and later
/// AutoFill-assisted sign-in (`assertFromAutoFill`). The app needs the associated domain
/// `webcredentials:<rpId>`, which the server's `apple-app-site-association` answers for.
@available(iOS 16.0, macOS 13.0, *)
public final class PlatformPasskeyAuthenticator: NSObject, PasskeyAuthenticator, @unchecked Sendable {
    /// The window the system's sheet is shown over.
    private let anchor: @MainActor () -> ASPresentationAnchor
    /// Each request's waiting ceremony, by its controller: an AutoFill request may still be
    /// waiting when the user asks for the sheet, and each must hear only its own answer.
    private var pending: [ObjectIdentifier: CheckedContinuation<ASAuthorization, any Error>] = [:]
    private var current: ASAuthorizationController?

    /// An authenticator presenting over the window `anchor` returns.
    public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// Makes a passkey for the options' relying party and user.
    public func register(_ options: DatacoveWire.PasskeyCreationOptions) async throws -> DatacoveWire.PasskeyRegistrationCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rp.id)
        let request = provider.createCredentialRegistrationRequest(
            challenge: try Self.bytes(options.challenge), name: options.user.name, userID: try Self.bytes(options.user.id))
        request.userVerificationPreference = .required
        guard let credential = try await perform([request], autoFill: false).credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
            let attestation = credential.rawAttestationObject
        else { throw PasskeyAuthenticatorError.unexpectedCredential }
        let id = Base64URL.encode(credential.credentialID)
        return .init(id: id, rawId: id, response: .init(
            clientDataJSON: Base64URL.encode(credential.rawClientDataJSON), attestationObject: Base64URL.encode(attestation), transports: ["internal", "hybrid"]),
            authenticatorAttachment: "platform")
    }

    /// Signs the challenge with a passkey the user picks in the system's sheet.
    public func assert(_ options: DatacoveWire.PasskeyRequestOptions) async throws -> DatacoveWire.PasskeyAssertionCredential {
        try await assertion(options, autoFill: false)
    }

    /// The same, offered in the keyboard's QuickType bar of a field with `.username` content
    /// type (iOS 16 and later): no sheet until the user picks a passkey there.
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    public func assertFromAutoFill(_ options: DatacoveWire.PasskeyRequestOptions) async throws -> DatacoveWire.PasskeyAssertionCredential {
        try await assertion(options, autoFill: true)
    }

    private func assertion(_ options: DatacoveWire.PasskeyRequestOptions, autoFill: Bool) async throws -> DatacoveWire.PasskeyAssertionCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId)
        let request = provider.createCredentialAssertionRequest(challenge: try Self.bytes(options.challenge))
        request.userVerificationPreference = .required
        request.allowedCredentials = try options.allowCredentials.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: try Self.bytes($0.id)) }
        guard let credential = try await perform([request], autoFill: autoFill).credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
            throw PasskeyAuthenticatorError.unexpectedCredential
        }
        let id = Base64URL.encode(credential.credentialID)
        return .init(id: id, rawId: id, response: .init(
            clientDataJSON: Base64URL.encode(credential.rawClientDataJSON), authenticatorData: Base64URL.encode(credential.rawAuthenticatorData),
            signature: Base64URL.encode(credential.signature), userHandle: Base64URL.encode(credential.userID)), authenticatorAttachment: "platform")
    }

    @MainActor
    private func perform(_ requests: [ASAuthorizationRequest], autoFill: Bool) async throws -> ASAuthorization {
        try await withCheckedThrowingContinuation { continuation in
            // A request still waiting (AutoFill's) is cancelled: the system answers it, with an
            // error, through its own controller.
            current?.cancel()
            let controller = ASAuthorizationController(authorizationRequests: requests)
            pending[ObjectIdentifier(controller)] = continuation
            controller.delegate = self
            controller.presentationContextProvider = self
            current = controller
            #if os(iOS)
            if autoFill { controller.performAutoFillAssistedRequests() } else { controller.performRequests() }
            #else
            controller.performRequests()
            #endif
        }
    }

    static func bytes(_ text: String) throws -> Data {
        guard let bytes = Base64URL.decode(text) else { throw PasskeyAuthenticatorError.optionsInvalid }
        return Data(bytes)
    }
}

@available(iOS 16.0, macOS 13.0, *)
extension PlatformPasskeyAuthenticator: ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    /// Hands the credential to the waiting ceremony.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        finished(controller)?.resume(returning: authorization)
    }

    /// Hands the failure (a cancel included) to the waiting ceremony.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        finished(controller)?.resume(throwing: error)
    }

    /// The ceremony `controller` answers, taken out of those waiting.
    private func finished(_ controller: ASAuthorizationController) -> CheckedContinuation<ASAuthorization, any Error>? {
        if current === controller { current = nil }
        return pending.removeValue(forKey: ObjectIdentifier(controller))
    }

    /// The window the sheet is shown over.
    public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif

/// Why a passkey authenticator gave no answer the server can read.
public enum PasskeyAuthenticatorError: Error, Equatable, Sendable {
    /// The server's options hold a field that is not base64url.
    case optionsInvalid
    /// The platform answered with another kind of credential.
    case unexpectedCredential
}
