/// The error codes this SDK version recognises in the API's error envelope.
///
/// Closed on purpose: an unrecognised code leaves ``APIErrorItem/known`` `nil` while
/// ``APIErrorItem/code`` keeps the raw value.
public enum APIErrorCode: String, Sendable, Equatable, CaseIterable {
    /// `destination` is absent or blank.
    case destinationBlank = "destination_blank"
    /// `destination` is not a valid phone number.
    case destinationInvalid = "destination_invalid"
    /// `delivery_method` is absent or blank.
    case deliveryMethodBlank = "delivery_method_blank"
    /// `delivery_method` is not a supported channel.
    case deliveryMethodInclusion = "delivery_method_inclusion"
    /// The reported delivery method differs from the verification's.
    case deliveryMethodInvalid = "delivery_method_invalid"
    /// A `languages` tag is malformed.
    case languagesInvalid = "languages_invalid"
    /// The Android app hash is malformed.
    case appHashInvalid = "app_hash_invalid"
    /// `code` is absent or blank.
    case codeBlank = "code_blank"
    /// Legacy: a code was sent on a channel that takes none; no longer sent.
    case codeValuePresent = "code_value_present"
    /// Legacy caller-id channel: `cli` is blank; no longer sent.
    case cliBlank = "cli_blank"
    /// Legacy caller-id channel: `cli` must be blank; no longer sent.
    case cliValuePresent = "cli_value_present"
    /// The channel cannot reach the destination (older servers answered 422 with this).
    case destinationNotSupportedForChannel = "destination_not_supported_for_channel"
    /// The reported code is wrong.
    case codeInvalid = "code_invalid"
    /// Legacy caller-id channel: the reported caller id is wrong; no longer sent.
    case cliInvalid = "cli_invalid"
    /// The verification is already verified and the reported value does not match.
    case alreadyVerified = "already_verified"
    /// The verification is still being dispatched; retry the report shortly.
    case notReadyToReport = "not_ready_to_report"
    /// Generic validation failure.
    case validationFailed = "validation_failed"
    /// The request body has no valid `data` object.
    case parameterMissing = "parameter_missing"
    /// Authentication failed.
    case unauthorized = "unauthorized"
    /// The verification or number is unknown.
    case notFound = "not_found"
    /// The account balance is insufficient (older slug).
    case balanceInsufficient = "balance_insufficient"
    /// The server failed internally.
    case internalError = "internal_error"
    /// A verification for this number was started too recently (429).
    case destinationInCooldown = "destination_in_cooldown"
    /// `autofill: .domain` was requested but the application has no SMS domain.
    case smsDomainNotConfigured = "sms_domain_not_configured"
    /// The requested template group does not exist.
    case templateGroupNotFound = "template_group_not_found"
    /// `custom` is longer than 4096 characters.
    case customTooLong = "custom_too_long"
    /// Too many requests from this IP address (429).
    case rateLimitPerIP = "rate_limit_per_ip"
    /// Too many failed authentication attempts from this IP address (429).
    case rateLimitFailedAuth = "rate_limit_failed_auth"
    /// Too many requests for this account (429).
    case rateLimitPerAccount = "rate_limit_per_account"
    /// Too many public-mode requests for this account (429).
    case rateLimitPublicPerAccount = "rate_limit_public_per_account"
    /// The application reached its daily or monthly verification limit (429); do not offer a retry.
    case volumeLimitReached = "volume_limit_reached"
    /// The account balance is insufficient to start a verification (402).
    case insufficientBalance = "insufficient_balance"
}
