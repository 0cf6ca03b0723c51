extension Verification.Details {
    /// The `callout` block of a response: announcement language, code length and template group.
    public struct Callout: Sendable, Hashable {
        /// The language the announcement is played in, which may be a fallback to `en-US`.
        public let language: String?
        /// Digits announced (4–8); size the code-entry field from it.
        public let codeLength: Int?
        /// The template group applied, or `nil`.
        public let templateGroup: String?
        /// Whether the group's template was used; `false` when the server does not say.
        public let templateGroupUsed: Bool
        /// Why the default system template was used instead of the group's, or `nil`.
        public let templateFallbackReason: TemplateFallbackReason?

        /// Creates a callout block; useful for previews and tests.
        public init(
            language: String? = nil,
            codeLength: Int? = nil,
            templateGroup: String? = nil,
            templateGroupUsed: Bool = false,
            templateFallbackReason: TemplateFallbackReason? = nil
        ) {
            self.language = language
            self.codeLength = codeLength
            self.templateGroup = templateGroup
            self.templateGroupUsed = templateGroupUsed
            self.templateFallbackReason = templateFallbackReason
        }
    }
}
