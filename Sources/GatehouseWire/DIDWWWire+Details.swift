import Foundation

extension DIDWWWire {
    /// The reply's `sms` block. Every key is optional and a key of the wrong type reads as
    /// absent, so a block never fails the reply; the server writes each one, nulls included
    /// (`app_hash` only when the autofill is an Android hash).
    public struct SMSDetails: Codable, Sendable, Equatable {
        public var template: String?
        public var language: String?
        public var interceptionTimeout: Int?
        public var codeLength: Int?
        /// Older servers' echo of an Android hash; newer ones send `autofill` too.
        public var appHash: String?
        public var templateGroup: String?
        public var templateGroupUsed: Bool?
        public var templateFallbackReason: String?
        public var autofill: Autofill?

        public init(
            template: String?, language: String?, interceptionTimeout: Int?, codeLength: Int?, appHash: String? = nil,
            templateGroup: String?, templateGroupUsed: Bool?, templateFallbackReason: String?, autofill: Autofill?
        ) {
            self.template = template
            self.language = language
            self.interceptionTimeout = interceptionTimeout
            self.codeLength = codeLength
            self.appHash = appHash
            self.templateGroup = templateGroup
            self.templateGroupUsed = templateGroupUsed
            self.templateFallbackReason = templateFallbackReason
            self.autofill = autofill
        }

        enum CodingKeys: String, CodingKey {
            case template, language, autofill
            case interceptionTimeout = "interception_timeout", codeLength = "code_length", appHash = "app_hash"
            case templateGroup = "template_group", templateGroupUsed = "template_group_used"
            case templateFallbackReason = "template_fallback_reason"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            template = container.lenient(String.self, .template)
            language = container.lenient(String.self, .language)
            interceptionTimeout = container.lenient(Int.self, .interceptionTimeout)
            codeLength = container.lenient(Int.self, .codeLength)
            appHash = container.lenient(String.self, .appHash)
            templateGroup = container.lenient(String.self, .templateGroup)
            templateGroupUsed = container.lenient(Bool.self, .templateGroupUsed)
            templateFallbackReason = container.lenient(String.self, .templateFallbackReason)
            autofill = container.lenient(Autofill.self, .autofill)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(template, forKey: .template)
            try container.encode(language, forKey: .language)
            try container.encode(interceptionTimeout, forKey: .interceptionTimeout)
            try container.encode(codeLength, forKey: .codeLength)
            try container.encodeIfPresent(appHash, forKey: .appHash)
            try container.encode(templateGroup, forKey: .templateGroup)
            try container.encode(templateGroupUsed, forKey: .templateGroupUsed)
            try container.encode(templateFallbackReason, forKey: .templateFallbackReason)
            try container.encode(autofill, forKey: .autofill)
        }
    }

    /// The reply's `callout` block, read as leniently as the sms block.
    public struct CalloutDetails: Codable, Sendable, Equatable {
        public var language: String?
        public var codeLength: Int?
        public var templateGroup: String?
        public var templateGroupUsed: Bool?
        public var templateFallbackReason: String?

        public init(language: String?, codeLength: Int?, templateGroup: String?, templateGroupUsed: Bool?, templateFallbackReason: String?) {
            self.language = language
            self.codeLength = codeLength
            self.templateGroup = templateGroup
            self.templateGroupUsed = templateGroupUsed
            self.templateFallbackReason = templateFallbackReason
        }

        enum CodingKeys: String, CodingKey {
            case language
            case codeLength = "code_length", templateGroup = "template_group", templateGroupUsed = "template_group_used"
            case templateFallbackReason = "template_fallback_reason"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            language = container.lenient(String.self, .language)
            codeLength = container.lenient(Int.self, .codeLength)
            templateGroup = container.lenient(String.self, .templateGroup)
            templateGroupUsed = container.lenient(Bool.self, .templateGroupUsed)
            templateFallbackReason = container.lenient(String.self, .templateFallbackReason)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(language, forKey: .language)
            try container.encode(codeLength, forKey: .codeLength)
            try container.encode(templateGroup, forKey: .templateGroup)
            try container.encode(templateGroupUsed, forKey: .templateGroupUsed)
            try container.encode(templateFallbackReason, forKey: .templateFallbackReason)
        }
    }

    /// `{"type": "domain" | "app_hash" | …, "value": …}`; without both strings it reads as absent.
    public struct Autofill: Codable, Sendable, Equatable {
        public var type: String
        public var value: String
        public init(type: String, value: String) {
            self.type = type
            self.value = value
        }
    }
}
