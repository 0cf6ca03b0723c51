/// The JSON shapes of the Verification API; internal so the wire format is not public API.
enum VerificationWire {
    /// `{"data": {...}}` of a start request.
    struct StartBody: Encodable, Equatable {
        let data: StartData
    }

    struct StartData: Encodable, Equatable {
        let destination: String
        let deliveryMethod: String
        let sms: SMSBlock?
        let callout: CalloutBlock?
        let custom: String?

        enum CodingKeys: String, CodingKey {
            case destination, sms, callout, custom
            case deliveryMethod = "delivery_method"
        }
    }

    struct SMSBlock: Encodable, Equatable {
        let languages: [String]?
        let autofill: AutofillBlock?
        let templateGroup: String?

        enum CodingKeys: String, CodingKey {
            case languages, autofill
            case templateGroup = "template_group"
        }
    }

    /// `sms.autofill` of a start: `{"type": "domain" | "none"}`. The Android `app_hash` type
    /// (with its `value`) is not offered on iOS.
    struct AutofillBlock: Encodable, Equatable {
        let type: String
    }

    struct CalloutBlock: Encodable, Equatable {
        let languages: [String]?
        let templateGroup: String?

        enum CodingKeys: String, CodingKey {
            case languages
            case templateGroup = "template_group"
        }
    }

    /// `{"data": {"delivery_method": …, "code": …}}` of a code report.
    struct ReportBody: Encodable, Equatable {
        let data: ReportData
    }

    struct ReportData: Encodable, Equatable {
        let deliveryMethod: String
        let code: String

        enum CodingKeys: String, CodingKey {
            case code
            case deliveryMethod = "delivery_method"
        }
    }
}
