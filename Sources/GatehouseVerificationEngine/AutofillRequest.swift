/// The autofill marker a start asks for: `sms.autofill` of the request, which SDK 1.2 sends
/// as an object `{"type": "app_hash" | "domain" | "none", "value": …}` (the shape responses
/// echo) and older clients as the string `"domain"` or `"none"`.
public enum AutofillRequest: Sendable, Equatable {
    /// Android SMS Retriever: prefix `<#> ` and end with this 11-character hash.
    case appHash(String)
    /// Apple's domain-bound line `@<domain> #<code>`, with the application's SMS domain;
    /// an application without one refuses it (`sms_domain_not_configured`).
    case domain
    /// No marker, even when the application has an SMS domain.
    case disabled
    /// A type this server does not know (`validation_failed`).
    case unknown(String)

    /// The request's `type` (or the whole string form) and, for `app_hash`, its `value`.
    /// A missing hash reads as an empty one, which fails as `app_hash_invalid`.
    public init(type: String, value: String?) {
        switch type {
        case "app_hash": self = .appHash(value ?? "")
        case "domain": self = .domain
        case "none": self = .disabled
        default: self = .unknown(type)
        }
    }
}
