import GatehouseCore

/// How a broken field rule reads, in the plain English every dialect's messages share.
extension FieldRule {
    /// The sentence for `field`: "name must be 1 to 200 characters".
    func sentence(_ field: String) -> String {
        switch self {
        case .required: "\(field) is required"
        case .noControlCharacters: "\(field) must not contain control characters"
        case .codePlaceholder: "\(field) must contain {{CODE}}"
        default: "\(field) must be \(expectation)"
        }
    }

    private var expectation: String {
        switch self {
        case .required, .noControlCharacters, .codePlaceholder: "present"
        case .length(let range): range.lowerBound == 0 ? "at most \(range.upperBound) characters" : "\(Self.span(range)) characters"
        case .digits(let range): "\(Self.span(range)) digits"
        case .printableASCII(let range): "\(Self.span(range)) printable ASCII characters"
        case .range(let range): Self.span(range)
        case .oneOf(let values): Self.alternatives(values)
        case .decimal(let example): "a decimal string such as \(example)"
        case .languageTag: "a BCP 47 tag"
        case .hostName: "a host name"
        case .countryCodes: "ISO 3166 alpha-2 codes"
        case .httpURL: "an http or https URL"
        case .phonePrefix: "+ and 1 to 9 digits, a country code first (such as +447400)"
        case .emailAddress: "an email address"
        case .numberOrEmail: "an international number (+14165550123) or an email address"
        case .string: "a string"
        case .wholeNumber: "a whole number"
        case .number(let range): "a number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))"
        case .wholeNumberFrom(let lowest, let highest): "a whole number from \(lowest)" + (highest.map { " to \($0)" } ?? "")
        case .wholeNumberAbove(let bound): "a whole number above \(bound)"
        case .boolean: "true or false"
        case .list: "a list"
        case .anObject: "an object"
        case .aNumber: "a number"
        case .object(let keys): "an object with " + Self.all(keys)
        case .pemCertificate: "a PEM certificate"
        }
    }

    private static func span(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// 2 rather than 2.0.
    private static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// "platformProductId and credits".
    static func all(_ values: [String]) -> String { listed(values, lastJoinedBy: "and") }

    /// "IOS, ANDROID or WEB".
    static func alternatives(_ values: [String]) -> String { listed(values, lastJoinedBy: "or") }

    private static func listed(_ values: [String], lastJoinedBy conjunction: String) -> String {
        guard let last = values.last, values.count > 1 else { return values.first ?? "" }
        return values.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
