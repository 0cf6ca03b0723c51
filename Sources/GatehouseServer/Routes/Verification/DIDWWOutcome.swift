import GatehouseVerificationEngine

/// The `error_code` and `error_detail` of a finished verification (wire note §10 plus the
/// SDK 1.2 reasons).
enum DIDWWOutcome {
    /// The slug of an outcome.
    static func slug(_ outcome: VerificationOutcome) -> String {
        switch outcome {
        case .dispatchFailed: "dispatch_failed"
        case .expired: "expired"
        case .tooManyAttempts: "too_many_attempts"
        case .staleDispatch: "stale_dispatch"
        case .applicationDeleted: "application_deleted"
        case .superseded: "superseded"
        case .deniedMissingCallbackURL: "denied_missing_callback_url"
        case .deniedByCallback: "denied_by_callback"
        case .deniedInvalidCallbackResponse: "denied_invalid_callback_response"
        case .applicationPaused: "application_paused"
        case .destinationCountryDisabled: "destination_country_disabled"
        case .destinationNotSupportedForChannel: "destination_not_supported_for_channel"
        case .failedToDeliver: "failed_to_deliver"
        }
    }

    /// The fixed text of an outcome.
    static func detail(_ outcome: VerificationOutcome) -> String {
        switch outcome {
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

    /// Slug and text of what a record stores; an outcome this binary does not know is sent
    /// as stored, with its words for a text.
    static func codeAndDetail(stored: String?) -> (code: String, detail: String)? {
        guard let stored else { return nil }
        guard let outcome = VerificationOutcome(rawValue: stored) else { return (stored, stored.replacingOccurrences(of: "_", with: " ")) }
        return (slug(outcome), detail(outcome))
    }
}
