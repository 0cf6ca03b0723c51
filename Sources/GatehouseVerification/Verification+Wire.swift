import Foundation
import GatehouseWire
import GatehouseFormats

/// A success reply, `{"data": <Verification>}`, read through ``DIDWWWire/Verification`` and turned
/// into the SDK's readings: the fee as an exact `Decimal`, the expiry as a `Date`, the details.
///
/// Decoded as one value, so a fee the shared type accepts but `Decimal` cannot hold still fails
/// the reply the way any other undecodable body does.
struct VerificationReply: Decodable {
    /// The Verification object as the shared wire type read it.
    let wire: DIDWWWire.Verification
    /// `fee` parsed from its decimal text, never through `Double`.
    let fee: Decimal?

    init(from decoder: any Decoder) throws {
        wire = try DIDWWWire.Envelope<DIDWWWire.Verification>(from: decoder).data
        fee = try wire.fee.map { text in
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "fee is not a decimal: \(text)"))
            }
            return value
        }
    }

    /// `expires_at` as a date; `nil` when absent or unparseable (start turns that into an error).
    var expiresAt: Date? { wire.expiresAt.flatMap(WireDate.parse) }

    /// The sms block wins over the callout block; neither is checked against `delivery_method`.
    var details: Verification.Details? {
        if let sms = wire.sms { return .sms(Verification.Details.SMS(wire: sms)) }
        if let callout = wire.callout { return .callout(Verification.Details.Callout(wire: callout)) }
        return nil
    }

    /// What `verify(...)` and `status(...)` return.
    var verificationResult: VerificationResult {
        VerificationResult(
            id: wire.id, destination: wire.destination, deliveryMethod: DeliveryMethod(wireValue: wire.deliveryMethod), fee: fee,
            status: Verification.Status(wireValue: wire.status), reason: wire.errorCode.map(Verification.Reason.init(wireValue:)),
            errorCode: wire.errorCode, errorDetail: wire.errorDetail, expiresAt: expiresAt, details: details)
    }

    /// The handle `start(...)` returns, with the expiry the caller already checked.
    func verification(expiresAt: Date) -> Verification {
        Verification(
            id: wire.id, destination: wire.destination, deliveryMethod: DeliveryMethod(wireValue: wire.deliveryMethod),
            expiresAt: expiresAt, status: Verification.Status(wireValue: wire.status), errorCode: wire.errorCode,
            errorDetail: wire.errorDetail, fee: fee, details: details)
    }
}

extension Verification.Details.SMS {
    /// The reply's `sms` block: `template_group_used` absent means `false`; a legacy `app_hash`
    /// without a readable `autofill` object becomes an `.appHash` marker.
    init(wire: DIDWWWire.SMSDetails) {
        // Servers that predate the autofill object echo a stored Android hash as `app_hash`.
        let autofill = wire.autofill.map { Autofill(type: .init(wireValue: $0.type), value: $0.value) }
            ?? wire.appHash.map { Autofill(type: .appHash, value: $0) }
        self.init(
            template: wire.template, language: wire.language, codeLength: wire.codeLength, templateGroup: wire.templateGroup,
            templateGroupUsed: wire.templateGroupUsed ?? false,
            templateFallbackReason: wire.templateFallbackReason.map(Verification.Details.TemplateFallbackReason.init(wireValue:)),
            autofill: autofill)
    }
}

extension Verification.Details.Callout {
    /// The reply's `callout` block: `template_group_used` absent means `false`.
    init(wire: DIDWWWire.CalloutDetails) {
        self.init(
            language: wire.language, codeLength: wire.codeLength, templateGroup: wire.templateGroup,
            templateGroupUsed: wire.templateGroupUsed ?? false,
            templateFallbackReason: wire.templateFallbackReason.map(Verification.Details.TemplateFallbackReason.init(wireValue:)))
    }
}
