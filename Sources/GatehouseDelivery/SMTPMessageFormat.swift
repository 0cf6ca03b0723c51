import Foundation
import GatehouseCore

/// Builds the RFC 5322 message an SMTP server receives and checks what goes into it, so no
/// value a caller passes can add a header or end the DATA phase early.
enum SMTPMessageFormat {
    /// RFC 5321 §4.5.3.1.3: a path is at most 256 octets including the angle brackets.
    static let maximumAddressLength = 254
    /// Keeps the subject within one reasonable header even after encoding.
    static let maximumSubjectLength = 200

    /// Throws unless `address` is a bare ASCII `local@domain` with nothing that could break
    /// out of `<…>` in an SMTP command or a header: no CR/LF or other controls, no spaces,
    /// no angle brackets, commas or quotes. The address itself is left out of the error, since
    /// a rejected value may be an injection attempt that should not reach a log verbatim.
    static func validateAddress(_ address: String, role: String) throws {
        let scalars = address.unicodeScalars
        guard !address.isEmpty, address.utf8.count <= maximumAddressLength else {
            throw DeliveryError("\(role) address is empty or too long")
        }
        let forbidden: Set<Character> = ["<", ">", ",", ";", "\"", "\\", "(", ")", ":"]
        guard scalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            !address.contains(where: { forbidden.contains($0) })
        else {
            throw DeliveryError("\(role) address contains characters not allowed in an SMTP address")
        }
        guard let at = address.lastIndex(of: "@"), at != address.startIndex,
            address.index(after: at) != address.endIndex
        else {
            throw DeliveryError("\(role) address is not of the form local@domain")
        }
    }

    /// Throws if the subject could add a header line (any control character) or is too long.
    static func validateSubject(_ subject: String) throws {
        guard !subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw DeliveryError("email subject contains control characters")
        }
        guard subject.count <= maximumSubjectLength else {
            throw DeliveryError("email subject is longer than \(maximumSubjectLength) characters")
        }
    }

    /// The whole message with CRLF line endings, before dot-stuffing.
    static func compose(from: String, to: String, subject: String, body: String, date: Date, messageID: String) -> String {
        let headers = [
            "Date: \(rfc5322Date(date))",
            "From: <\(from)>",
            "To: <\(to)>",
            "Subject: \(encodedHeaderValue(subject))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + quotedPrintable(body)
    }

    /// `<id@domain>` from the message's own id (so a retry of the same message keeps its
    /// Message-ID and receivers can drop the duplicate) and the sender's domain.
    static func messageID(id: String, from: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let local = String(id.filter { allowed.contains($0) })
        let domain = from.lastIndex(of: "@").map { String(from[from.index(after: $0)...]) } ?? "localhost"
        return "<\(local.isEmpty ? "message" : local)@\(domain)>"
    }

    /// RFC 5322 §3.3 date-time in UTC, e.g. `Thu, 01 Jan 2026 00:00:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        // POSIX locale: day and month names must be English whatever the server's locale is.
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// The value as is when it is printable ASCII; otherwise RFC 2047 `=?UTF-8?B?…?=` words,
    /// each short enough for a 76-character line, split between characters (never inside one) and folded
    /// onto continuation lines, which a decoder joins without the folding space (§6.2).
    static func encodedHeaderValue(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        // "=?" inside a plain value could be read as an encoded word, so that is encoded too.
        if plain && !value.contains("=?") { return value }
        // RFC 2047 §2 keeps a line holding encoded words within 76 characters. 39 bytes become
        // 52 base64 characters; with "=?UTF-8?B?" and "?=" a word is 64, which still fits after
        // "Subject: " on the first line and after the folding space on the others.
        let maximumBytes = 39
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in value {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > maximumBytes {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(encodedWord(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }

    /// RFC 2045 §6.7 quoted-printable with CRLF hard breaks and `=` soft breaks keeping every
    /// line within 76 characters. Any input line ending (LF, CRLF or CR) becomes CRLF, and the
    /// result always ends with CRLF so the DATA terminator starts on its own line.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 1 && lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { quotedPrintableLine(Array($0.utf8)) + "\r\n" }.joined()
    }

    private static func quotedPrintableLine(_ bytes: [UInt8]) -> String {
        var output = ""
        var column = 0
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let literal: Bool
            switch byte {
            // Whitespace at a line end is stripped by some relays, so it is encoded there.
            case 0x20, 0x09: literal = !isLast
            case 0x3D: literal = false  // "=" starts an escape
            case 0x21...0x7E: literal = true
            default: literal = false
            }
            let token = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
            // 75 leaves room for the "=" of the soft break within the 76-character limit.
            if column + token.count > 75 {
                output += "=\r\n"
                column = 0
            }
            output += token
            column += token.count
        }
        return output
    }

    /// The DATA payload: a line that starts with "." gets a second one (RFC 5321 §4.5.2), so
    /// no body line can end the message early, then the `CRLF . CRLF` terminator follows.
    static func dataPayload(_ message: String) -> [UInt8] {
        var payload: [UInt8] = []
        var atLineStart = true
        for byte in message.utf8 {
            if atLineStart && byte == UInt8(ascii: ".") { payload.append(UInt8(ascii: ".")) }
            payload.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        if !message.hasSuffix("\r\n") { payload += Array("\r\n".utf8) }
        return payload + Array(".\r\n".utf8)
    }
}
