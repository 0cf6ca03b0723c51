/// The channel a verification code travels over.
///
/// Open: a channel added by the server later decodes as `.other(raw)` and is echoed raw.
public enum DeliveryMethod: Sendable, Hashable, CaseIterable {
    /// A text message carrying the code.
    case sms
    /// A phone call announcing the code.
    case callout
    /// A channel this SDK version does not model, with its raw wire value.
    case other(String)

    /// The channels this SDK models: `.sms` and `.callout`.
    public static var allCases: [DeliveryMethod] { [.sms, .callout] }

    init(wireValue: String) {
        switch wireValue {
        case "sms": self = .sms
        case "callout": self = .callout
        default: self = .other(wireValue)
        }
    }

    var wireValue: String {
        switch self {
        case .sms: return "sms"
        case .callout: return "callout"
        case .other(let raw): return raw
        }
    }
}
