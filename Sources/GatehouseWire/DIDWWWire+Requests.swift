import Foundation

extension DIDWWWire {
    /// A request field as the server read it: absent or null, a value of the expected type,
    /// or something else (which fails that field's own validation, not the whole body).
    public enum Field<Value: Sendable>: Sendable {
        case missing
        case value(Value)
        case invalid

        /// The value, when there is one of the expected type.
        public var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }

        public var isInvalid: Bool {
            if case .invalid = self { return true }
            return false
        }
    }

    /// The `data` of a start: `POST /verifications`. Unknown keys are dropped.
    public struct StartRequest: Codable, Sendable {
        public var destination: Field<String>
        public var deliveryMethod: Field<String>
        public var sms: Field<SMSOptions>
        public var callout: Field<CalloutOptions>
        public var custom: Field<String>

        public init(
            destination: String, deliveryMethod: String, sms: SMSOptions? = nil, callout: CalloutOptions? = nil, custom: String? = nil
        ) {
            self.destination = .value(destination)
            self.deliveryMethod = .value(deliveryMethod)
            self.sms = sms.map(Field.value) ?? .missing
            self.callout = callout.map(Field.value) ?? .missing
            self.custom = custom.map(Field.value) ?? .missing
        }

        enum CodingKeys: String, CodingKey {
            case destination, sms, callout, custom
            case deliveryMethod = "delivery_method"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            destination = container.field(String.self, .destination)
            deliveryMethod = container.field(String.self, .deliveryMethod)
            sms = container.field(SMSOptions.self, .sms)
            callout = container.field(CalloutOptions.self, .callout)
            custom = container.field(String.self, .custom)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(destination.value, forKey: .destination)
            try container.encodeIfPresent(deliveryMethod.value, forKey: .deliveryMethod)
            try container.encodeIfPresent(sms.value, forKey: .sms)
            try container.encodeIfPresent(callout.value, forKey: .callout)
            try container.encodeIfPresent(custom.value, forKey: .custom)
        }
    }

    /// A start's `sms` block.
    public struct SMSOptions: Codable, Sendable {
        public var languages: Field<[String]>
        /// The older way to ask for an Android hash; `autofill` is the newer.
        public var appHash: Field<String>
        public var autofill: Field<AutofillRequest>
        public var templateGroup: Field<String>

        public init(languages: [String]? = nil, autofill: AutofillRequest? = nil, templateGroup: String? = nil) {
            self.languages = languages.map(Field.value) ?? .missing
            appHash = .missing
            self.autofill = autofill.map(Field.value) ?? .missing
            self.templateGroup = templateGroup.map(Field.value) ?? .missing
        }

        enum CodingKeys: String, CodingKey {
            case languages, autofill
            case appHash = "app_hash", templateGroup = "template_group"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            languages = container.field([String].self, .languages)
            appHash = container.field(String.self, .appHash)
            autofill = container.field(AutofillRequest.self, .autofill)
            templateGroup = container.field(String.self, .templateGroup)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(languages.value, forKey: .languages)
            try container.encodeIfPresent(appHash.value, forKey: .appHash)
            try container.encodeIfPresent(autofill.value, forKey: .autofill)
            try container.encodeIfPresent(templateGroup.value, forKey: .templateGroup)
        }
    }

    /// A start's `callout` block.
    public struct CalloutOptions: Codable, Sendable {
        public var languages: Field<[String]>
        public var templateGroup: Field<String>

        public init(languages: [String]? = nil, templateGroup: String? = nil) {
            self.languages = languages.map(Field.value) ?? .missing
            self.templateGroup = templateGroup.map(Field.value) ?? .missing
        }

        enum CodingKeys: String, CodingKey {
            case languages
            case templateGroup = "template_group"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            languages = container.field([String].self, .languages)
            templateGroup = container.field(String.self, .templateGroup)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(languages.value, forKey: .languages)
            try container.encodeIfPresent(templateGroup.value, forKey: .templateGroup)
        }
    }

    /// `sms.autofill`: the object `{"type", "value"}` that SDK 1.2 sends, or the older string
    /// (`"domain"`, `"none"`). An object without a string `type` fails the field.
    public struct AutofillRequest: Codable, Sendable {
        public var type: String
        public var value: Field<String>

        public init(type: String, value: String? = nil) {
            self.type = type
            self.value = value.map(Field.value) ?? .missing
        }

        enum CodingKeys: String, CodingKey { case type, value }

        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                type = text
                value = .missing
            } else {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                type = try container.decode(String.self, forKey: .type)
                value = container.field(String.self, .value)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encodeIfPresent(value.value, forKey: .value)
        }
    }

    /// The `data` of a code report: `PUT`/`PATCH /verifications/{id}` or `…/by_number/{number}`.
    public struct ReportRequest: Codable, Sendable {
        public var deliveryMethod: Field<String>
        public var code: Field<String>

        public init(deliveryMethod: String, code: String) {
            self.deliveryMethod = .value(deliveryMethod)
            self.code = .value(code)
        }

        enum CodingKeys: String, CodingKey {
            case code
            case deliveryMethod = "delivery_method"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            deliveryMethod = container.field(String.self, .deliveryMethod)
            code = container.field(String.self, .code)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(code.value, forKey: .code)
            try container.encodeIfPresent(deliveryMethod.value, forKey: .deliveryMethod)
        }
    }
}

extension KeyedDecodingContainer {
    /// The field at `key`: `.missing` when absent or null, `.invalid` when of another type.
    func field<T: Decodable & Sendable>(_ type: T.Type, _ key: Key) -> DIDWWWire.Field<T> {
        guard contains(key), (try? decodeNil(forKey: key)) != true else { return .missing }
        guard let value = try? decode(type, forKey: key) else { return .invalid }
        return .value(value)
    }
}

// Value equality for the request shapes, so a contract test can compare what it decoded with
// what it built; encoding and decoding are untouched.

/// Two fields are equal when both are missing, both invalid, or both hold equal values.
extension DIDWWWire.Field: Equatable where Value: Equatable {}
/// Field by field.
extension DIDWWWire.StartRequest: Equatable {}
/// Field by field, `app_hash` included.
extension DIDWWWire.SMSOptions: Equatable {}
/// Field by field.
extension DIDWWWire.CalloutOptions: Equatable {}
/// Field by field: the older string `"domain"` equals the object `{"type": "domain"}`.
extension DIDWWWire.AutofillRequest: Equatable {}
/// Field by field.
extension DIDWWWire.ReportRequest: Equatable {}
