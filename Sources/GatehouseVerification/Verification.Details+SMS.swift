extension Verification.Details {
    /// The `sms` block of a response: template, chosen language, code length, template group and autofill.
    public struct SMS: Sendable, Hashable {
        /// The message text with the `{{CODE}}` placeholder left in.
        public let template: String?
        /// The language the server selected, which may be a fallback to `en-US`.
        public let language: String?
        /// Digits in this verification's code (4–8); size the code-entry field from it.
        public let codeLength: Int?
        /// The template group applied, or `nil`.
        public let templateGroup: String?
        /// Whether the group's template was used; `false` when the server does not say.
        public let templateGroupUsed: Bool
        /// Why the default system template was used instead of the group's, or `nil`.
        public let templateFallbackReason: TemplateFallbackReason?
        /// The stored autofill marker, or `nil`.
        public let autofill: Autofill?

        /// Creates an SMS block; useful for previews and tests.
        public init(
            template: String? = nil,
            language: String? = nil,
            codeLength: Int? = nil,
            templateGroup: String? = nil,
            templateGroupUsed: Bool = false,
            templateFallbackReason: TemplateFallbackReason? = nil,
            autofill: Autofill? = nil
        ) {
            self.template = template
            self.language = language
            self.codeLength = codeLength
            self.templateGroup = templateGroup
            self.templateGroupUsed = templateGroupUsed
            self.templateFallbackReason = templateFallbackReason
            self.autofill = autofill
        }

        /// The autofill marker stored on a verification: its kind and the hash or domain.
        public struct Autofill: Sendable, Hashable {
            /// Which marker was stored.
            public let type: Kind
            /// The Android app hash or the domain.
            public let value: String

            /// Creates a marker.
            public init(type: Kind, value: String) {
                self.type = type
                self.value = value
            }

            /// The kind of autofill marker; unknown kinds decode as `.other(raw)`.
            public enum Kind: Sendable, Hashable {
                /// An Android SMS Retriever app hash (`app_hash`).
                case appHash
                /// A domain-bound line, `@<domain> #<code>` (`domain`).
                case domain
                /// A kind this SDK version does not know, with its raw wire value.
                case other(String)

                init(wireValue: String) {
                    switch wireValue {
                    case "app_hash": self = .appHash
                    case "domain": self = .domain
                    default: self = .other(wireValue)
                    }
                }
            }
        }
    }
}
