import GatehouseVerificationEngine

/// The DIDWW error slugs (wire note §11, plus the SDK 1.2 codes), each with its fixed
/// `detail` text and HTTP status. The text never describes the particular request.
enum DIDWWErrorCode: String, CaseIterable, Sendable {
    case destinationBlank = "destination_blank"
    case destinationInvalid = "destination_invalid"
    case deliveryMethodBlank = "delivery_method_blank"
    case deliveryMethodInclusion = "delivery_method_inclusion"
    case deliveryMethodInvalid = "delivery_method_invalid"
    case languagesInvalid = "languages_invalid"
    case appHashInvalid = "app_hash_invalid"
    case codeBlank = "code_blank"
    case destinationNotSupportedForChannel = "destination_not_supported_for_channel"
    case codeInvalid = "code_invalid"
    case alreadyVerified = "already_verified"
    case notReadyToReport = "not_ready_to_report"
    case parameterMissing = "parameter_missing"
    case notFound = "not_found"
    case unauthorized = "unauthorized"
    case balanceInsufficient = "balance_insufficient"
    case destinationInCooldown = "destination_in_cooldown"
    case validationFailed = "validation_failed"
    case internalError = "internal_error"
    case customTooLong = "custom_too_long"
    case templateGroupNotFound = "template_group_not_found"
    case smsDomainNotConfigured = "sms_domain_not_configured"
    case rateLimitPerIP = "rate_limit_per_ip"
    case rateLimitFailedAuth = "rate_limit_failed_auth"
    case rateLimitPerAccount = "rate_limit_per_account"
    case rateLimitPublicPerAccount = "rate_limit_public_per_account"
    case volumeLimitReached = "volume_limit_reached"

    /// The slug of an engine refusal.
    init(_ code: VerificationErrorCode) {
        switch code {
        case .destinationBlank: self = .destinationBlank
        case .destinationInvalid: self = .destinationInvalid
        case .deliveryMethodBlank: self = .deliveryMethodBlank
        case .deliveryMethodUnknown: self = .deliveryMethodInclusion
        case .deliveryMethodMismatch: self = .deliveryMethodInvalid
        case .languagesInvalid: self = .languagesInvalid
        case .appHashInvalid: self = .appHashInvalid
        case .codeBlank: self = .codeBlank
        case .destinationNotSupportedForChannel: self = .destinationNotSupportedForChannel
        case .codeInvalid: self = .codeInvalid
        case .alreadyVerified: self = .alreadyVerified
        case .notReadyToReport: self = .notReadyToReport
        case .notFound: self = .notFound
        case .unauthorized: self = .unauthorized
        case .balanceInsufficient: self = .balanceInsufficient
        case .destinationInCooldown: self = .destinationInCooldown
        case .validationFailed: self = .validationFailed
        case .customTooLong: self = .customTooLong
        case .templateGroupNotFound: self = .templateGroupNotFound
        case .smsDomainNotConfigured: self = .smsDomainNotConfigured
        case .rateLimitPerIP: self = .rateLimitPerIP
        case .rateLimitFailedAuth: self = .rateLimitFailedAuth
        case .rateLimitPerAccount: self = .rateLimitPerAccount
        case .rateLimitPublicPerAccount: self = .rateLimitPublicPerAccount
        case .volumeLimitReached: self = .volumeLimitReached
        }
    }

    var detail: String {
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
        }
    }

    /// 422 unless the wire note says otherwise.
    var status: Int {
        switch self {
        case .parameterMissing: 400
        case .unauthorized: 401
        case .balanceInsufficient: 402
        case .notFound: 404
        case .destinationInCooldown, .rateLimitPerIP, .rateLimitFailedAuth, .rateLimitPerAccount,
             .rateLimitPublicPerAccount, .volumeLimitReached: 429
        case .internalError: 500
        default: 422
        }
    }
}
