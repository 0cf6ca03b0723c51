import Foundation

/// Turns a template and a code into the text that is actually delivered, and checks the
/// values (templates, app hashes, SMS domains) that rendering relies on.
public enum MessageRenderer {
    /// The case-sensitive code placeholder of every template.
    public static let placeholder = "{{CODE}}"

    /// The SMS text for `code`: the template with its placeholder replaced, plus at most one
    /// autofill marker.
    ///
    /// `appHash` (Android SMS Retriever) prefixes `<#> ` and ends the text with the hash as its
    /// final token; `autofillDomain` ends it with Apple's domain-bound line `@<domain> #<code>`.
    /// Each format needs its marker at the very end, so they cannot share a message: when both
    /// are given the app hash wins, being the more specific per-verification request.
    public static func renderSMS(
        template: String, code: String, appHash: String? = nil, autofillDomain: String? = nil
    ) -> String {
        let body = template.replacingOccurrences(of: placeholder, with: code)
        if let appHash {
            return "<#> " + body + "\n" + appHash
        }
        if let autofillDomain {
            // The blank line keeps the marker apart from the text; Apple reads only the last line.
            return body + "\n\n@" + autofillDomain + " #" + code
        }
        return body
    }

    /// The announcement text for `code`, its digits separated by spaces so speech synthesis
    /// reads them one by one ("1 2 3 4", not "one thousand two hundred…").
    public static func renderCallout(template: String, code: String) -> String {
        let spoken = code.map(String.init).joined(separator: " ")
        return template.replacingOccurrences(of: placeholder, with: spoken)
    }

    /// Whether an SMS template holds the placeholder exactly once, as `sms.template` promises.
    public static func isValidSMSTemplate(_ template: String) -> Bool {
        placeholderCount(in: template) == 1
    }

    /// Whether a callout template holds the placeholder at least once (repeats are spoken).
    public static func isValidCalloutTemplate(_ template: String) -> Bool {
        placeholderCount(in: template) >= 1
    }

    /// Whether `hash` matches `^[A-Za-z0-9+/]{11}$`; failing it is `app_hash_invalid`.
    public static func isValidAppHash(_ hash: String) -> Bool {
        hash.utf8.count == 11 && hash.utf8.allSatisfy { byte in
            isLowerAlphanumeric(byte) || (0x41...0x5A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }

    /// Whether `domain` is a bare lower-case hostname usable in `@<domain> #<code>`.
    ///
    /// At least two dot-separated labels of 1–63 characters (`a-z`, `0-9`, `-`, no hyphen at
    /// either end), at most 253 characters, no scheme, port, path or trailing dot, and a
    /// top-level label that is not all digits, so an IP address is refused: Apple binds the
    /// code to a registered web domain.
    public static func isValidDomain(_ domain: String) -> Bool {
        let bytes = Array(domain.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, !last.allSatisfy(isDigit) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count)
                && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// Non-overlapping occurrences of the placeholder.
    static func placeholderCount(in template: String) -> Int {
        template.components(separatedBy: placeholder).count - 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || isDigit(byte)
    }
}
