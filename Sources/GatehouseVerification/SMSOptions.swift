/// SMS-specific start options, sent as the request's `sms` block.
public struct SMSOptions: Sendable, Equatable {
    /// Preferred template languages as BCP 47 tags, most preferred first (`languages`).
    public var languages: [String]?
    /// Overrides the application's SMS autofill default for this verification; `nil` keeps it.
    public var autofill: Autofill?
    /// Name of one of the application's template groups to use instead of its default (`template_group`).
    public var templateGroup: String?

    /// Creates SMS options; every value defaults to `nil` (the server's defaults).
    public init(languages: [String]? = nil, autofill: Autofill? = nil, templateGroup: String? = nil) {
        self.languages = languages
        self.autofill = autofill
        self.templateGroup = templateGroup
    }

    /// The autofill marker requested for one verification.
    public enum Autofill: Sendable, Hashable, CaseIterable {
        /// Adds the domain-bound line (`@<domain> #<code>`); sent as `"autofill":{"type":"domain"}`.
        case domain
        /// Sends no autofill marker; sent as `"autofill":{"type":"none"}`.
        case disabled
    }

    /// True when nothing would be sent, so the block is omitted.
    var isEmpty: Bool { languages == nil && autofill == nil && templateGroup == nil }
}
