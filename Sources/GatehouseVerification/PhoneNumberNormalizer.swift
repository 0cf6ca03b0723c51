/// Turns a formatted phone number into the digits-only path segment of the by-number calls.
enum PhoneNumberNormalizer {
    /// The ASCII digits of `number`, or `VerificationError.invalidNumber` when there are none.
    ///
    /// Digits only, because the server reads a `.` in the last path segment as a format
    /// suffix and the log redactor masks only digit runs. Non-ASCII digits are dropped.
    static func digits(_ number: String) throws -> String {
        let digits = String(String.UnicodeScalarView(number.unicodeScalars.filter { ("0"..."9").contains($0) }))
        guard !digits.isEmpty else { throw VerificationError.invalidNumber }
        return digits
    }
}
