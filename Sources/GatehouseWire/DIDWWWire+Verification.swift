import Foundation

extension DIDWWWire {
    /// The Verification object of every success reply. The server writes `error_code`,
    /// `error_detail` and each block's nullable keys as explicit nulls; a reader needs only
    /// `id`, `destination`, `delivery_method` and `status`, and a block or key it cannot read
    /// counts as absent.
    public struct Verification: Codable, Sendable, Equatable {
        public var id: String
        public var destination: String
        public var deliveryMethod: String
        public var status: String
        /// A decimal string such as `"0.05"` (a number is read too, never through `Double`).
        public var fee: String?
        public var errorCode: String?
        public var errorDetail: String?
        /// Whole seconds in UTC, `2026-11-03T09:00:00Z`.
        public var expiresAt: String?
        public var sms: SMSDetails?
        public var callout: CalloutDetails?

        public init(
            id: String, destination: String, deliveryMethod: String, status: String, fee: String?, errorCode: String?,
            errorDetail: String?, expiresAt: String?, sms: SMSDetails? = nil, callout: CalloutDetails? = nil
        ) {
            self.id = id
            self.destination = destination
            self.deliveryMethod = deliveryMethod
            self.status = status
            self.fee = fee
            self.errorCode = errorCode
            self.errorDetail = errorDetail
            self.expiresAt = expiresAt
            self.sms = sms
            self.callout = callout
        }

        enum CodingKeys: String, CodingKey {
            case id, destination, status, fee, sms, callout
            case deliveryMethod = "delivery_method", errorCode = "error_code", errorDetail = "error_detail", expiresAt = "expires_at"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            destination = try container.decode(String.self, forKey: .destination)
            deliveryMethod = try container.decode(String.self, forKey: .deliveryMethod)
            status = try container.decode(String.self, forKey: .status)
            // A fee that is present but neither a decimal string nor a number fails the reply.
            fee = try container.decodeIfPresent(DecimalText.self, forKey: .fee)?.text
            errorCode = try container.decodeIfPresent(String.self, forKey: .errorCode)
            errorDetail = try container.decodeIfPresent(String.self, forKey: .errorDetail)
            expiresAt = container.lenient(String.self, .expiresAt)
            sms = container.lenient(SMSDetails.self, .sms)
            callout = container.lenient(CalloutDetails.self, .callout)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(destination, forKey: .destination)
            try container.encode(deliveryMethod, forKey: .deliveryMethod)
            try container.encode(fee, forKey: .fee)
            try container.encode(status, forKey: .status)
            try container.encode(errorCode, forKey: .errorCode)
            try container.encode(errorDetail, forKey: .errorDetail)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encodeIfPresent(sms, forKey: .sms)
            try container.encodeIfPresent(callout, forKey: .callout)
        }
    }

    /// A decimal from a JSON string (`"0.06"`) or a JSON number, kept as its text.
    struct DecimalText: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard Self.isDecimal(text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a decimal: \(text)")
                }
                self.text = text
            } else {
                text = "\(try container.decode(Decimal.self))"
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
