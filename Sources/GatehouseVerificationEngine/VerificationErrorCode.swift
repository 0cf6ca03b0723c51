/// A slug of the verification error envelope `{"errors":[{"code","detail"}]}` (wire note §11,
/// plus the SDK 1.2 codes), with its fixed `detail` text and HTTP status.
public enum VerificationErrorCode: String, CaseIterable, Sendable {
    /// `destination` absent, null or blank.
    case destinationBlank = "destination_blank"
    /// `destination` does not match `^\+?[0-9]{8,15}$` after separators are removed.
    case destinationInvalid = "destination_invalid"
    /// `delivery_method` absent or blank.
    case deliveryMethodBlank = "delivery_method_blank"
    /// `delivery_method` is neither `sms` nor `callout`.
    case deliveryMethodInclusion = "delivery_method_inclusion"
    /// A report's method differs from the verification's own.
    case deliveryMethodInvalid = "delivery_method_invalid"
    /// `languages` is not an array of well-formed tags.
    case languagesInvalid = "languages_invalid"
    /// `sms.app_hash` does not match `^[A-Za-z0-9+/]{11}$`.
    case appHashInvalid = "app_hash_invalid"
    /// A report without `code`.
    case codeBlank = "code_blank"
    /// The channel cannot reach the destination (older servers' 422 form).
    case destinationNotSupportedForChannel = "destination_not_supported_for_channel"
    /// A wrong code while attempts remain.
    case codeInvalid = "code_invalid"
    /// A different value reported against a verified verification.
    case alreadyVerified = "already_verified"
    /// A report before the code was dispatched; temporary.
    case notReadyToReport = "not_ready_to_report"
    /// The body is not an object holding a `data` object.
    case parameterMissing = "parameter_missing"
    /// No such verification for this application.
    case notFound = "not_found"
    /// Any authentication failure; deliberately says nothing more.
    case unauthorized = "unauthorized"
    /// The account balance is exhausted (the wire's slug for it).
    case balanceInsufficient = "balance_insufficient"
    /// A start too soon after the last non-denied start for this number.
    case destinationInCooldown = "destination_in_cooldown"
    /// Generic validation fallback.
    case validationFailed = "validation_failed"
    /// An unexpected server failure.
    case internalError = "internal_error"
    /// `custom` longer than 4096 characters.
    case customTooLong = "custom_too_long"
    /// An unknown `template_group` name.
    case templateGroupNotFound = "template_group_not_found"
    /// Domain autofill requested but the application has no SMS domain.
    case smsDomainNotConfigured = "sms_domain_not_configured"
    /// Too many requests from one IP address.
    case rateLimitPerIP = "rate_limit_per_ip"
    /// Too many failed authentications from one IP address.
    case rateLimitFailedAuth = "rate_limit_failed_auth"
    /// Too many requests for one account.
    case rateLimitPerAccount = "rate_limit_per_account"
    /// Too many public-mode requests for one account.
    case rateLimitPublicPerAccount = "rate_limit_public_per_account"
    /// The application's daily or monthly verification limit is used up.
    case volumeLimitReached = "volume_limit_reached"
    /// The SDK's name for a 402; the wire sends `balance_insufficient`.
    case insufficientBalance = "insufficient_balance"

    /// The fixed text sent beside the code; it never describes the particular request.
    public var detail: String {
        switch self {
        case .destinationBlank: "destination can't be blank"
        case .destinationInvalid: "destination is invalid"
        case .deliveryMethodBlank: "delivery method can't be blank"
        case .deliveryMethodInclusion: "delivery method is not included in the list"
        case .deliveryMethodInvalid: "delivery method is invalid"
        case .languagesInvalid: "languages are invalid"
        case .appHashInvalid: "app hash is invalid"
        case .codeBlank: "code can't be blank"
        case .destinationNotSupportedForChannel: "destination not supported for provided delivery method"
        case .codeInvalid: "code is invalid"
        case .alreadyVerified: "verification is already verified; provided value is invalid"
        case .notReadyToReport: "verification is not ready to be reported"
        case .parameterMissing: "request body must contain a valid data object"
        case .notFound: "not found"
        case .unauthorized: "unauthorized"
        case .balanceInsufficient: "insufficient balance"
        case .destinationInCooldown: "verification for this destination was requested too recently"
        case .validationFailed: "request is invalid"
        case .internalError: "internal server error"
        case .customTooLong: "custom is too long"
        case .templateGroupNotFound: "template group not found"
        case .smsDomainNotConfigured: "application has no sms domain"
        case .rateLimitPerIP: "too many requests from this ip address"
        case .rateLimitFailedAuth: "too many failed authentication attempts"
        case .rateLimitPerAccount: "too many requests for this account"
        case .rateLimitPublicPerAccount: "too many public requests for this account"
        case .volumeLimitReached: "verification volume limit reached"
        case .insufficientBalance: "insufficient balance"
        }
    }

    /// The HTTP status of a response carrying this code; 422 unless the note says otherwise.
    public var httpStatus: Int {
        switch self {
        case .parameterMissing: 400
        case .unauthorized: 401
        case .balanceInsufficient, .insufficientBalance: 402
        case .notFound: 404
        case .destinationInCooldown, .rateLimitPerIP, .rateLimitFailedAuth, .rateLimitPerAccount,
             .rateLimitPublicPerAccount, .volumeLimitReached: 429
        case .internalError: 500
        default: 422
        }
    }
}

/// An outcome slug of a finished verification (`error_code` on 200/201 bodies, wire note §10
/// plus the SDK 1.2 reasons), with its fixed `error_detail` and the status it comes with.
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

    /// The terminal, unsuccessful statuses an outcome can come with (raw value on the wire).
    public enum Status: String, CaseIterable, Sendable {
        case failed, expired, denied
    }

    /// The fixed `error_detail` text.
    public var detail: String {
        switch self {
        case .dispatchFailed: "failed to deliver"
        case .expired: "expired"
        case .tooManyAttempts: "too many attempts"
        case .staleDispatch: "number unreachable"
        case .applicationDeleted: "application deleted"
        case .superseded: "superseded"
        case .deniedMissingCallbackURL: "application has no callback_url"
        case .deniedByCallback: "your callback denied the request"
        case .deniedInvalidCallbackResponse: "callback response was invalid"
        case .applicationPaused: "application is paused"
        case .destinationCountryDisabled: "destination country is disabled"
        case .destinationNotSupportedForChannel: "destination not supported for provided delivery method"
        case .failedToDeliver: "failed to deliver"
        }
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
