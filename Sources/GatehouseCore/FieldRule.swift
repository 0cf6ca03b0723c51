/// The rule a refused value breaks, as data: engines say which rule, dialects word it
/// ("name must be 1 to 200 characters").
public enum FieldRule: Equatable, Sendable {
    /// The field must be present.
    case required
    /// So many characters, after trimming.
    case length(ClosedRange<Int>)
    /// So many ASCII digits.
    case digits(ClosedRange<Int>)
    /// A whole number in this range.
    case range(ClosedRange<Int>)
    /// One of these values.
    case oneOf([String])
    /// A decimal string such as the example.
    case decimal(example: String)
    /// No control characters.
    case noControlCharacters
    /// A BCP 47 language tag.
    case languageTag
    /// A DNS host name.
    case hostName
    /// ISO 3166 alpha-2 country codes.
    case countryCodes
    /// An http or https URL.
    case httpURL
    /// A message template holding the code's placeholder.
    case codePlaceholder
    /// `+` and 1 to 9 digits, a country code first.
    case phonePrefix
    /// An email address.
    case emailAddress
    /// An international number or an email address.
    case numberOrEmail
    /// A JSON string.
    case string
    /// A whole number.
    case wholeNumber
    /// So many printable ASCII characters.
    case printableASCII(ClosedRange<Int>)
    /// A number (not necessarily whole) in this range.
    case number(ClosedRange<Double>)
    /// A whole number from `lowest`, and up to `highest` when one is given.
    case wholeNumberFrom(Int, to: Int?)
    /// A whole number greater than this one.
    case wholeNumberAbove(Int)
    /// true or false.
    case boolean
    /// A JSON array.
    case list
    /// A JSON object.
    case anObject
    /// A JSON number.
    case aNumber
    /// A JSON object holding these keys.
    case object(keys: [String])
    /// A PEM certificate.
    case pemCertificate
}
