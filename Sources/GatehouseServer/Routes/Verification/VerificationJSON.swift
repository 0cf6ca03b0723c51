import Foundation
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseFormats

/// `{"data": <Verification>}` as §9 of the wire notes and seed 001 describe, through the
/// shared wire type: every required key present (nulls written out), `fee` a decimal string,
/// the channel's block only for its channel.
enum VerificationJSON {
    static func envelope(_ record: VerificationRecord, now: Date) -> DIDWWWire.Envelope<DIDWWWire.Verification> {
        let outcome = DIDWWOutcome.codeAndDetail(stored: record.storedOutcome(at: now))
        var verification = DIDWWWire.Verification(
            id: record.id, destination: record.destination, deliveryMethod: record.channel.rawValue, status: record.status(at: now).rawValue,
            fee: Money.string(record.feeMicros), errorCode: outcome?.code, errorDetail: outcome?.detail,
            expiresAt: WireDate.seconds(record.expiresAt))
        switch record.channel {
        case .sms:
            verification.sms = DIDWWWire.SMSDetails(
                template: record.template, language: record.language, interceptionTimeout: record.interceptionTimeout,
                codeLength: record.codeLength, appHash: record.autofillType == "app_hash" ? record.autofillValue : nil,
                templateGroup: record.templateGroup, templateGroupUsed: record.templateGroupUsed,
                templateFallbackReason: record.templateFallbackReason,
                autofill: record.autofillType.flatMap { type in record.autofillValue.map { DIDWWWire.Autofill(type: type, value: $0) } })
        case .callout:
            verification.callout = DIDWWWire.CalloutDetails(
                language: record.language, codeLength: record.codeLength, templateGroup: record.templateGroup,
                templateGroupUsed: record.templateGroupUsed, templateFallbackReason: record.templateFallbackReason)
        case .email:
            // Email codes belong to Gatehouse's own sign-in, whose applications the DIDWW API never reaches.
            break
        }
        return DIDWWWire.Envelope(data: verification)
    }
}
