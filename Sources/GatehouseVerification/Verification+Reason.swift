extension Verification {
    /// Why a verification failed, expired or was denied; unknown codes decode as `.other(raw)`.
    public enum Reason: Sendable, Hashable {
        /// The number could not be reached (`stale_dispatch`); no longer sent, see ``failedToDeliver``.
        case numberUnreachable
        /// Delivery failed (`failed_to_deliver`, or the older `dispatch_failed`).
        case failedToDeliver
        /// The verification passed its expiry (`expired`).
        case expired
        /// The report after the last allowed wrong code (`too_many_attempts`).
        case tooManyAttempts
        /// The owning application was deleted (`application_deleted`).
        case applicationDeleted
        /// Your callback answered deny (`denied_by_callback`).
        case deniedByCallback
        /// Public authentication was used and the application has no callback URL (`denied_missing_callback_url`).
        case deniedMissingCallbackURL
        /// Your callback's answer could not be used (`denied_invalid_callback_response`).
        case deniedInvalidCallbackResponse
        /// A newer start for the same number replaced this verification (`superseded`).
        case superseded
        /// The application is paused; every start is denied until it resumes (`application_paused`).
        case applicationPaused
        /// The destination's country is disabled for the account (`destination_country_disabled`).
        case destinationCountryDisabled
        /// The channel cannot reach the destination, or it is in a blocked range (`destination_not_supported_for_channel`).
        case destinationNotSupportedForChannel
        /// A code this SDK version does not know, with its raw wire value.
        case other(String)

        init(wireValue: String) {
            switch wireValue {
            case "stale_dispatch": self = .numberUnreachable
            case "failed_to_deliver", "dispatch_failed": self = .failedToDeliver
            case "expired": self = .expired
            case "too_many_attempts": self = .tooManyAttempts
            case "application_deleted": self = .applicationDeleted
            case "denied_by_callback": self = .deniedByCallback
            case "denied_missing_callback_url": self = .deniedMissingCallbackURL
            case "denied_invalid_callback_response": self = .deniedInvalidCallbackResponse
            case "superseded": self = .superseded
            case "application_paused": self = .applicationPaused
            case "destination_country_disabled": self = .destinationCountryDisabled
            case "destination_not_supported_for_channel": self = .destinationNotSupportedForChannel
            default: self = .other(wireValue)
            }
        }
    }
}
