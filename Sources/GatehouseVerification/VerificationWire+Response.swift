import Foundation
import GatehouseWire

extension VerificationWire {
    /// `{"data": <Verification>}` of every success response.
    struct Envelope: Decodable {
        let data: VerificationDTO
    }

    /// The Verification object. `id`, `destination`, `delivery_method` and `status` are required;
    /// unknown keys are ignored and enum-like strings fail open.
    struct VerificationDTO: Decodable {
        let id: String
        let destination: String
        let deliveryMethod: String
        let status: String
        let fee: Decimal?
        let errorCode: String?
        let errorDetail: String?
        /// `nil` when absent or unparseable; start turns that into an error.
        let expiresAt: Date?
        let details: Verification.Details?

        enum CodingKeys: String, CodingKey {
            case id, destination, status, fee, sms, callout
            case deliveryMethod = "delivery_method"
            case errorCode = "error_code"
            case errorDetail = "error_detail"
            case expiresAt = "expires_at"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            destination = try container.decode(String.self, forKey: .destination)
            deliveryMethod = try container.decode(String.self, forKey: .deliveryMethod)
            status = try container.decode(String.self, forKey: .status)
            // A fee that is present but neither a decimal string nor a number fails the response.
            fee = try container.decodeIfPresent(FlexibleDecimal.self, forKey: .fee)?.value
            errorCode = try container.decodeIfPresent(String.self, forKey: .errorCode)
            errorDetail = try container.decodeIfPresent(String.self, forKey: .errorDetail)
            expiresAt = (try? container.decodeIfPresent(String.self, forKey: .expiresAt)).flatMap(WireDate.parse)
            // The sms block wins over the callout block; neither is checked against delivery_method.
            if let sms = try? container.decodeIfPresent(SMSDetailsDTO.self, forKey: .sms) {
                details = .sms(sms.model)
            } else if let callout = try? container.decodeIfPresent(CalloutDetailsDTO.self, forKey: .callout) {
                details = .callout(callout.model)
            } else {
                details = nil
            }
        }

        var verificationResult: VerificationResult {
            VerificationResult(
                id: id, destination: destination, deliveryMethod: DeliveryMethod(wireValue: deliveryMethod), fee: fee,
                status: Verification.Status(wireValue: status), reason: errorCode.map(Verification.Reason.init(wireValue:)),
                errorCode: errorCode, errorDetail: errorDetail, expiresAt: expiresAt, details: details)
        }

        func verification(expiresAt: Date) -> Verification {
            Verification(
                id: id, destination: destination, deliveryMethod: DeliveryMethod(wireValue: deliveryMethod),
                expiresAt: expiresAt, status: Verification.Status(wireValue: status), errorCode: errorCode,
                errorDetail: errorDetail, fee: fee, details: details)
        }
    }

    /// A decimal from a JSON string (`"0.06"`) or a JSON number, never through `Double`.
    struct FlexibleDecimal: Decodable {
        let value: Decimal

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard Self.isDecimal(text), let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "fee is not a decimal: \(text)")
                }
                self.value = value
            } else {
                value = try container.decode(Decimal.self)
            }
        }

        /// `-?digits(.digits)?` with an optional exponent: `Decimal(string:)` alone accepts a
        /// valid prefix followed by garbage.
        static func isDecimal(_ text: String) -> Bool {
            var scalars = Substring(text).unicodeScalars[...]
            func digits() -> Int {
                var count = 0
                while let first = scalars.first, ("0"..."9").contains(first) {
                    scalars.removeFirst()
                    count += 1
                }
                return count
            }
            if scalars.first == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
            if scalars.first == "." {
                scalars.removeFirst()
                guard digits() > 0 else { return false }
            }
            if scalars.first == "e" || scalars.first == "E" {
                scalars.removeFirst()
                if scalars.first == "+" || scalars.first == "-" { scalars.removeFirst() }
                guard digits() > 0 else { return false }
            }
            return scalars.isEmpty
        }
    }
}
