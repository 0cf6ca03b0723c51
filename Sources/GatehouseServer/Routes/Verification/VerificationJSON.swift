import Foundation
import GatehouseVerificationEngine
import GatehouseWire

/// `{"data": <Verification>}` as §9 of the wire notes and seed 001 describe: every
/// required key present (nulls written out), `fee` a decimal string, the channel's block
/// only for its channel.
struct VerificationJSON: Encodable {
    let record: VerificationRecord
    let now: Date

    private enum Keys: String, CodingKey {
        case data, id, destination, fee, status, sms, callout, language, template, autofill, type, value
        case deliveryMethod = "delivery_method", errorCode = "error_code", errorDetail = "error_detail"
        case expiresAt = "expires_at", interceptionTimeout = "interception_timeout", codeLength = "code_length"
        case appHash = "app_hash", templateGroup = "template_group", templateGroupUsed = "template_group_used"
        case templateFallbackReason = "template_fallback_reason"
    }

    func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        var data = root.nestedContainer(keyedBy: Keys.self, forKey: .data)
        try data.encode(record.id, forKey: .id)
        try data.encode(record.destination, forKey: .destination)
        try data.encode(record.channel.rawValue, forKey: .deliveryMethod)
        try data.encode(Money.string(record.feeMicros), forKey: .fee)
        try data.encode(record.status(at: now).rawValue, forKey: .status)
        let code = record.outcomeCode(at: now)
        try data.encode(code, forKey: .errorCode)
        try data.encode(code.map { VerificationOutcome(rawValue: $0)?.detail ?? $0.replacingOccurrences(of: "_", with: " ") }, forKey: .errorDetail)
        try data.encode(Self.timestamp(record.expiresAt), forKey: .expiresAt)
        switch record.channel {
        case .sms:
            var sms = data.nestedContainer(keyedBy: Keys.self, forKey: .sms)
            try sms.encode(record.template, forKey: .template)
            try sms.encode(record.language, forKey: .language)
            try sms.encode(record.interceptionTimeout, forKey: .interceptionTimeout)
            try sms.encode(record.codeLength, forKey: .codeLength)
            if record.autofillType == "app_hash" { try sms.encode(record.autofillValue, forKey: .appHash) }
            try encodeTemplateGroup(into: &sms)
            if let type = record.autofillType, let value = record.autofillValue {
                var autofill = sms.nestedContainer(keyedBy: Keys.self, forKey: .autofill)
                try autofill.encode(type, forKey: .type)
                try autofill.encode(value, forKey: .value)
            } else {
                try sms.encodeNil(forKey: .autofill)
            }
        case .callout:
            var callout = data.nestedContainer(keyedBy: Keys.self, forKey: .callout)
            try callout.encode(record.language, forKey: .language)
            try callout.encode(record.codeLength, forKey: .codeLength)
            try encodeTemplateGroup(into: &callout)
        case .email:
            // Email codes belong to Gatehouse's own sign-in, whose applications the DIDWW API never reaches.
            break
        }
    }

    private func encodeTemplateGroup(into container: inout KeyedEncodingContainer<Keys>) throws {
        try container.encode(record.templateGroup, forKey: .templateGroup)
        try container.encode(record.templateGroupUsed, forKey: .templateGroupUsed)
        try container.encode(record.templateFallbackReason, forKey: .templateFallbackReason)
    }

    /// Whole seconds in UTC, as the vendor writes `expires_at`.
    static func timestamp(_ date: Date) -> String {
        WireDate.seconds(date)
    }
}
