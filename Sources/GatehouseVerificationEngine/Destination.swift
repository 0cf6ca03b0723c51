/// Phone-number handling for the verification wire: validation of a start's `destination`
/// and the digit extraction that by-number paths use.
public enum Destination {
    /// Validates a start's destination and returns it as digits only, without `+`; nil when it
    /// is `destination_invalid`.
    ///
    /// Only space, `-`, `(` and `)` are separators. A `.` is deliberately not one: the vendor
    /// rejects `+371.12345678`, and accepting it here would let through numbers the SDKs'
    /// by-number paths could never reach (the vendor's router eats a dot as a format suffix).
    public static func normalize(_ raw: String) -> String? {
        var characters = Array(raw.utf8).filter { !separators.contains($0) }
        if characters.first == UInt8(ascii: "+") { characters.removeFirst() }
        guard (8...15).contains(characters.count), characters.allSatisfy(isASCIIDigit) else { return nil }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Every ASCII digit of `raw` in order; by-number paths strip everything else.
    ///
    /// Only ASCII digits count, so Arabic-Indic or full-width digits never alias a number.
    public static func digits(_ raw: String) -> String {
        String(decoding: raw.utf8.filter(isASCIIDigit), as: UTF8.self)
    }

    private static let separators: Set<UInt8> = [
        UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "("), UInt8(ascii: ")"),
    ]

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
