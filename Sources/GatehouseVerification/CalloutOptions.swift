/// Phone-call-specific start options, sent as the request's `callout` block.
public struct CalloutOptions: Sendable, Equatable {
    /// Preferred announcement languages as BCP 47 tags, most preferred first (`languages`).
    public var languages: [String]?
    /// Name of one of the application's template groups to use instead of its default (`template_group`).
    public var templateGroup: String?

    /// Creates callout options; every value defaults to `nil` (the server's defaults).
    public init(languages: [String]? = nil, templateGroup: String? = nil) {
        self.languages = languages
        self.templateGroup = templateGroup
    }

    /// True when nothing would be sent, so the block is omitted.
    var isEmpty: Bool { languages == nil && templateGroup == nil }
}
