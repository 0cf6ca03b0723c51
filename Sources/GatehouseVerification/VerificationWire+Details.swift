extension VerificationWire {
    /// The response's `sms` block. Every key is optional and a key of the wrong type reads as
    /// absent, so a block never fails the response.
    struct SMSDetailsDTO: Decodable {
        let model: Verification.Details.SMS

        enum CodingKeys: String, CodingKey {
            case template, language, autofill
            case codeLength = "code_length"
            case templateGroup = "template_group"
            case templateGroupUsed = "template_group_used"
            case templateFallbackReason = "template_fallback_reason"
            case appHash = "app_hash"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let group = GroupFields(container: container)
            var autofill = (try? container.decodeIfPresent(AutofillDTO.self, forKey: .autofill)).flatMap { $0.model }
            // Servers that predate the autofill object echo a stored Android hash as `app_hash`.
            if autofill == nil, let hash = (try? container.decodeIfPresent(String.self, forKey: .appHash)) ?? nil {
                autofill = .init(type: .appHash, value: hash)
            }
            model = Verification.Details.SMS(
                template: container.lenient(String.self, .template),
                language: container.lenient(String.self, .language),
                codeLength: container.lenient(Int.self, .codeLength),
                templateGroup: group.name,
                templateGroupUsed: group.used,
                templateFallbackReason: group.fallbackReason,
                autofill: autofill)
        }
    }

    /// The response's `callout` block, decoded as leniently as the sms block.
    struct CalloutDetailsDTO: Decodable {
        let model: Verification.Details.Callout

        enum CodingKeys: String, CodingKey {
            case language
            case codeLength = "code_length"
            case templateGroup = "template_group"
            case templateGroupUsed = "template_group_used"
            case templateFallbackReason = "template_fallback_reason"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let group = GroupFields(container: container)
            model = Verification.Details.Callout(
                language: container.lenient(String.self, .language),
                codeLength: container.lenient(Int.self, .codeLength),
                templateGroup: group.name,
                templateGroupUsed: group.used,
                templateFallbackReason: group.fallbackReason)
        }
    }

    /// `{"type": "domain" | "app_hash" | …, "value": …}`; without both strings it reads as absent.
    struct AutofillDTO: Decodable {
        let type: String?
        let value: String?

        var model: Verification.Details.SMS.Autofill? {
            guard let type, let value else { return nil }
            return .init(type: .init(wireValue: type), value: value)
        }
    }

    /// The template-group fields both blocks share.
    struct GroupFields {
        let name: String?
        let used: Bool
        let fallbackReason: Verification.Details.TemplateFallbackReason?

        init<Key: TemplateGroupKeys>(container: KeyedDecodingContainer<Key>) {
            name = container.lenient(String.self, .templateGroup)
            used = container.lenient(Bool.self, .templateGroupUsed) ?? false
            fallbackReason = container.lenient(String.self, .templateFallbackReason).map { .init(wireValue: $0) }
        }
    }
}

/// Coding keys that carry the template-group fields.
protocol TemplateGroupKeys: CodingKey {
    static var templateGroup: Self { get }
    static var templateGroupUsed: Self { get }
    static var templateFallbackReason: Self { get }
}

extension VerificationWire.SMSDetailsDTO.CodingKeys: TemplateGroupKeys {}
extension VerificationWire.CalloutDetailsDTO.CodingKeys: TemplateGroupKeys {}

extension KeyedDecodingContainer {
    /// The value for `key`, or `nil` when it is absent, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
