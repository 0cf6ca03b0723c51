extension HTML {
    /// The one escaping function: safe as element text and inside a quoted attribute value.
    ///
    /// - `& < > " '` become character references;
    /// - control characters (C0 but tab and line feed, DEL, C1) are drawn as `\u{2400}`-style
    ///   pictures or `U+XXXX`, so what was sent is visible and nothing invisible reaches the page;
    /// - bidirectional controls (LRM, RLM, the embeddings, overrides and isolates, ALM) are
    ///   written out as `[U+202E]`, so a value cannot reorder the text around it.
    public static func escape(_ text: String) -> String {
        // Most values need nothing: one byte scan decides.
        guard text.utf8.contains(where: needsLook) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09, 0x0A: out.unicodeScalars.append(scalar)
            case 0x00...0x1F: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out += "\u{2421}"
            case 0x80...0x9F: out += visible(scalar)
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: out += "[" + visible(scalar) + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A byte that may start something escaped: a markup character, a control, or the first
    /// byte of a multi-byte sequence (which may be a C1 or bidirectional control).
    private static func needsLook(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): return true
        case 0x00...0x1F, 0x7F...0xFF: return byte != 0x09 && byte != 0x0A
        default: return false
        }
    }

    private static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
