/// Why the verification engine refused a request, in the engine's own terms. It carries no
/// HTTP status, slug or text: each dialect maps a code to its own envelope (the DIDWW dialect
/// in `DIDWWError.swift`).
public enum VerificationErrorCode: CaseIterable, Sendable {
    /// No destination was given.
    case destinationBlank
    /// The destination is not a phone number of 8 to 15 digits.
    case destinationInvalid
    /// No delivery method was given.
    case deliveryMethodBlank
    /// The delivery method is not one the engine knows.
    case deliveryMethodUnknown
    /// A report's method differs from the verification's own.
    case deliveryMethodMismatch
    /// A language is not a well-formed tag.
    case languagesInvalid
    /// The app hash is not 11 base64 characters.
    case appHashInvalid
    /// A report without a code.
    case codeBlank
    /// The channel cannot reach the destination.
    case destinationNotSupportedForChannel
    /// A wrong code while attempts remain.
    case codeInvalid
    /// A different value reported against a verified verification.
    case alreadyVerified
    /// A report before the code was dispatched; temporary.
    case notReadyToReport
    /// No such verification for this application.
    case notFound
    /// The caller could not be authenticated; deliberately says nothing more.
    case unauthorized
    /// The account balance does not cover the fee.
    case balanceInsufficient
    /// A start too soon after the last non-denied start for this number.
    case destinationInCooldown
    /// A value that fails its check and has no more specific code.
    case validationFailed
    /// The custom value is longer than 4096 characters.
    case customTooLong
    /// An unknown template group.
    case templateGroupNotFound
    /// Domain autofill requested but the application has no SMS domain.
    case smsDomainNotConfigured
    /// Too many requests from one address.
    case rateLimitPerIP
    /// Too many failed authentications from one address.
    case rateLimitFailedAuth
    /// Too many requests for one account.
    case rateLimitPerAccount
    /// Too many public-mode starts for one account.
    case rateLimitPublicPerAccount
    /// The application's daily or monthly volume is used up.
    case volumeLimitReached
}

/// Why a finished verification did not succeed, and the status it comes with. The raw value
/// is what the engine stores; each dialect maps an outcome to its own slug and text.
public enum VerificationOutcome: String, CaseIterable, Sendable {
    /// Delivery failed.
    case dispatchFailed = "dispatch_failed"
    /// Past `expires_at` while unfinished.
    case expired = "expired"
    /// The report after the last allowed wrong code.
    case tooManyAttempts = "too_many_attempts"
    /// The number was unreachable (older servers).
    case staleDispatch = "stale_dispatch"
    /// The owning application was deleted.
    case applicationDeleted = "application_deleted"
    /// A newer non-denied start for the same application and number.
    case superseded = "superseded"
    /// A public start for an application without a callback URL.
    case deniedMissingCallbackURL = "denied_missing_callback_url"
    /// The callback answered `{"action":"deny"}`.
    case deniedByCallback = "denied_by_callback"
    /// The callback gave no usable answer.
    case deniedInvalidCallbackResponse = "denied_invalid_callback_response"
    /// The application is paused.
    case applicationPaused = "application_paused"
    /// The destination's country is disabled for the account.
    case destinationCountryDisabled = "destination_country_disabled"
    /// The channel cannot reach the destination or the number is in a blocked range.
    case destinationNotSupportedForChannel = "destination_not_supported_for_channel"
    /// Delivery failed (SDK 1.2's name; replaces `stale_dispatch`).
    case failedToDeliver = "failed_to_deliver"

    /// The terminal, unsuccessful statuses an outcome can come with.
    public enum Status: String, CaseIterable, Sendable {
        case failed, expired, denied
    }

    /// The status a verification with this outcome has.
    public var status: Status {
        switch self {
        case .expired: .expired
        case .deniedMissingCallbackURL, .deniedByCallback, .deniedInvalidCallbackResponse,
             .applicationPaused, .destinationCountryDisabled: .denied
        case .dispatchFailed, .tooManyAttempts, .staleDispatch, .applicationDeleted, .superseded,
             .destinationNotSupportedForChannel, .failedToDeliver: .failed
        }
    }
}
