/// Masks what may be a phone number or a one-time code before a line is logged.
///
/// Canonical UUIDs pass untouched; elsewhere a run of 8–15 digits (with an optional
/// leading `+`) becomes `«redacted-number»` and a run of 4–7 digits `«redacted-code»`,
/// so every run of 4–15 digits is masked. Longer runs are left alone.
public enum Redactor {
    public static let number = "«redacted-number»"
    public static let code = "«redacted-code»"

    public static func redact(_ text: String) -> String {
        let chars = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(chars.count)
        var index = 0
        while index < chars.count {
            if let end = uuidEnd(chars, at: index) {
                out.append(contentsOf: chars[index..<end])
                index = end
                continue
            }
            let previousIsDigit = index > 0 && isDigit(chars[index - 1])
            let plus = chars[index] == UInt8(ascii: "+") && index + 1 < chars.count && isDigit(chars[index + 1])
            guard !previousIsDigit, plus || isDigit(chars[index]) else {
                out.append(chars[index])
                index += 1
                continue
            }
            let start = plus ? index + 1 : index
            var end = start
            while end < chars.count, isDigit(chars[end]) { end += 1 }
            let length = end - start
            if (8...15).contains(length) {
                out.append(contentsOf: number.utf8)
            } else if (4...7).contains(length) {
                if plus { out.append(UInt8(ascii: "+")) }
                out.append(contentsOf: code.utf8)
            } else {
                out.append(contentsOf: chars[index..<end])
            }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static func isHex(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// The end of a canonical UUID starting at `index`, when nothing hex or `-` touches it.
    private static func uuidEnd(_ chars: [UInt8], at index: Int) -> Int? {
        let groups = [8, 4, 4, 4, 12]
        if index > 0, isHex(chars[index - 1]) || chars[index - 1] == UInt8(ascii: "-") { return nil }
        var position = index
        for (number, size) in groups.enumerated() {
            if number > 0 {
                guard position < chars.count, chars[position] == UInt8(ascii: "-") else { return nil }
                position += 1
            }
            for _ in 0..<size {
                guard position < chars.count, isHex(chars[position]) else { return nil }
                position += 1
            }
        }
        if position < chars.count, isHex(chars[position]) || chars[position] == UInt8(ascii: "-") { return nil }
        return position
    }
}
