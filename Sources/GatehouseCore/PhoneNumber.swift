import CPhoneNumber

/// Why a string could not be turned into a `PhoneNumber`; raw values are stable wire/storage codes.
public enum PhoneNumberError: String, Error, Sendable, Hashable, CaseIterable {
    /// The input does not look like a phone number at all.
    case notANumber = "not_a_number"
    /// Unknown country calling code, or no leading "+" and no usable default region.
    case invalidCountryCode = "invalid_country_code"
    /// Too few digits to be any number (including nothing after an international prefix).
    case tooShort = "too_short"
    /// More digits than E.164 (15) or the library's national-number limit allows.
    case tooLong = "too_long"
    /// Parsed, but not a valid number for its region (thrown by `validated()`).
    case invalid
    /// The phone-number library failed unexpectedly; not the caller's fault.
    case internalFailure = "internal_failure"

    /// Maps a `CPN_ERR_*` status from the C bridge.
    init(bridgeStatus status: Int32) {
        switch status {
        case CPN_ERR_INVALID_COUNTRY_CODE: self = .invalidCountryCode
        case CPN_ERR_NOT_A_NUMBER: self = .notANumber
        case CPN_ERR_TOO_SHORT_AFTER_IDD, CPN_ERR_TOO_SHORT_NSN: self = .tooShort
        case CPN_ERR_TOO_LONG: self = .tooLong
        default: self = .internalFailure
        }
    }
}

/// A phone number parsed and classified by libphonenumber, keyed by its E.164 form.
public struct PhoneNumber: Sendable, Hashable {
    /// E.164 form, e.g. "+447400123456"; the canonical identity of the number.
    public let e164: String
    /// Country calling code, e.g. 44.
    public let countryCode: Int
    /// National significant number without prefix or formatting (Italian leading zeros kept).
    public let nationalNumber: String
    /// ISO 3166 alpha-2 region, or nil when the number matches no region or is non-geographic (+800).
    public let region: String?
    /// Kind of line according to the region's numbering plan.
    public let lineType: PhoneLineType
    /// True if the number matches a known, allocated pattern for its region.
    public let isValid: Bool
    /// True if the number has a plausible length for its country (weaker than `isValid`).
    public let isPossible: Bool
    /// The number's prefix: its country code and the national destination code (the area or
    /// mobile network code) as libphonenumber splits them, e.g. "447400" for +44 7400 123456
    /// and "1650" for +1 650 253 0000. Where the plan names no destination code, the first
    /// three digits of the national number stand in.
    public let prefix: String

    /// E.164 caps a number at 15 digits; the library alone would accept up to 20.
    static let maxE164Digits = 15

    /// Parses free-form input ("020 7946 0018", "+1 (650) 253-0000"); `defaultRegion` applies when there is no "+".
    ///
    /// Numbers that parse but are not valid are returned with `isValid == false`;
    /// call `validated()` to insist on validity.
    public static func parse(_ input: String, defaultRegion: String? = nil) throws -> PhoneNumber {
        var raw = cpn_number()
        var text = input
        let status: Int32 = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let region = defaultRegion {
                    return region.withCString { cpn_parse(chars.baseAddress, chars.count, $0, &raw) }
                }
                return cpn_parse(chars.baseAddress, chars.count, nil, &raw)
            }
        }
        guard status == CPN_OK else { throw PhoneNumberError(bridgeStatus: status) }
        return try PhoneNumber(bridged: raw)
    }

    /// Parses the verification dialect: international digits only, no "+", e.g. "447700900123".
    public static func parseDigits(_ digits: String) throws -> PhoneNumber {
        // Checked here rather than left to the library, which would happily
        // read punctuation, letters and non-ASCII digits this dialect forbids.
        let bytes = digits.utf8
        guard !bytes.isEmpty, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw PhoneNumberError.notANumber
        }
        guard bytes.count <= maxE164Digits else { throw PhoneNumberError.tooLong }
        return try parse("+" + digits)
    }

    /// Returns self if `isValid`, otherwise throws `PhoneNumberError.invalid`.
    public func validated() throws -> PhoneNumber {
        guard isValid else { throw PhoneNumberError.invalid }
        return self
    }

    /// Main ISO alpha-2 region for a calling code (1 → "US", 44 → "GB"); nil if unassigned or non-geographic.
    public static func region(forCountryCode countryCode: Int) -> String? {
        guard let code = Int32(exactly: countryCode) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(CPN_REGION_SIZE))
        let status = cpn_region_for_country_code(code, &buffer, buffer.count)
        guard status == CPN_OK else { return nil }
        return isoRegion(decodeCString(buffer))
    }

    /// True if `region` (ISO alpha-2, any case) is a region libphonenumber has a numbering plan for.
    public static func isValidRegion(_ region: String) -> Bool {
        cpn_is_valid_region(region)
    }

    private init(bridged raw: cpn_number) throws {
        var raw = raw
        let e164 = withUnsafeBytes(of: &raw.e164) { decodeCString($0) }
        guard e164.utf8.count - 1 <= Self.maxE164Digits else { throw PhoneNumberError.tooLong }
        self.e164 = e164
        countryCode = Int(raw.country_code)
        nationalNumber = withUnsafeBytes(of: &raw.national_number) { decodeCString($0) }
        region = Self.isoRegion(withUnsafeBytes(of: &raw.region) { decodeCString($0) })
        lineType = PhoneLineType(bridgeCode: raw.line_type)
        isValid = raw.is_valid
        isPossible = raw.is_possible
        let destinationCode = raw.destination_code_length > 0 ? Int(raw.destination_code_length) : 3
        prefix = String(countryCode) + nationalNumber.prefix(destinationCode)
    }

    /// Keeps only two-letter codes: the library's "ZZ" (unknown) and "001" (non-geographic) are not regions.
    private static func isoRegion(_ code: String) -> String? {
        code.utf8.count == 2 && code != "ZZ" ? code : nil
    }
}

/// Reads a NUL-terminated string out of a fixed C buffer without trusting the terminator to exist.
private func decodeCString<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element: BinaryInteger {
    String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
}
