/// Why a passkey ceremony's response is refused (WebAuthn Level 3 §7.1, §7.2). Each case has a
/// stable code, which the dialects put in their envelope; none says more than the rule broken.
public enum WebAuthnError: String, Error, Sendable, Equatable, CaseIterable {
    case idMismatch = "credential_id_mismatch"
    case typeNotPublicKey = "credential_type_invalid"
    case clientDataMalformed = "client_data_invalid"
    /// `webauthn.get` at registration, or `webauthn.create` at sign-in.
    case wrongCeremony = "ceremony_type_mismatch"
    case challengeMismatch = "challenge_mismatch"
    case originNotAllowed = "origin_not_allowed"
    case crossOrigin = "cross_origin_refused"
    case rpIDMismatch = "rp_id_mismatch"
    case userNotPresent = "user_not_present"
    case userNotVerified = "user_not_verified"
    /// BS (backed up) set while BE (backup eligible) is clear.
    case backupStateInvalid = "backup_state_invalid"
    case authenticatorDataMalformed = "authenticator_data_invalid"
    case attestedCredentialMissing = "attested_credential_missing"
    case attestationMalformed = "attestation_invalid"
    case attestationFormatUnsupported = "attestation_format_unsupported"
    case attestationStatementInvalid = "attestation_statement_invalid"
    case algorithmNotOffered = "algorithm_not_offered"
    case publicKeyInvalid = "public_key_invalid"
    case signatureInvalid = "signature_invalid"

    public var code: String { rawValue }
}
