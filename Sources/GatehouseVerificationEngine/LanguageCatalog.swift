/// The language tags each channel can serve (wire note §19) and the vendor's resolution rule:
/// the first requested tag that exactly matches the channel's catalogue, else `en-US`.
public enum LanguageCatalog {
    /// The tag used when no requested tag matches.
    public static let fallback = "en-US"

    /// Languages with a system SMS template (41).
    public static let sms: [String] = [
        "bg-BG", "bs-BA", "cs-CZ", "da-DK", "de-DE", "el-GR", "en-GB", "en-US", "es-419", "es-ES",
        "et-EE", "fi-FI", "fr-FR", "he-IL", "hr-HR", "hu-HU", "is-IS", "it-IT", "ja-JP", "ka-GE",
        "lt-LT", "lv-LV", "mk-MK", "ms-MY", "mt-MT", "nb-NO", "nl-NL", "pl-PL", "pt-BR", "pt-PT",
        "ro-RO", "ru-RU", "sk-SK", "sl-SI", "sq-AL", "sr-RS", "sv-SE", "th-TH", "uk-UA", "zh-CN",
        "zh-HK",
    ]

    /// Languages with a callout recording (49). ka-GE, mt-MT, ru-RU and sq-AL are SMS-only.
    public static let callout: [String] = [
        "af-ZA", "ar-AE", "ar-EG", "ar-SA", "bg-BG", "bs-BA", "cs-CZ", "da-DK", "de-DE", "el-GR",
        "en-GB", "en-US", "es-419", "es-ES", "et-EE", "fi-FI", "fr-FR", "he-IL", "hi-IN", "hr-HR",
        "hu-HU", "id-ID", "is-IS", "it-IT", "ja-JP", "lt-LT", "lv-LV", "mk-MK", "ms-MY", "nb-NO",
        "nl-NL", "pl-PL", "pt-BR", "pt-PT", "ro-RO", "sk-SK", "sl-SI", "sr-RS", "sv-SE", "sw-KE",
        "th-TH", "tl-PH", "tr-CY", "tr-TR", "uk-UA", "ur-PK", "vi-VN", "zh-CN", "zh-HK",
    ]

    private static let smsSet = Set(sms)
    private static let calloutSet = Set(callout)

    /// The catalogue of `channel`, in the spec's order.
    public static func catalogue(for channel: VerificationChannel) -> [String] {
        switch channel {
        case .sms, .email: sms
        case .callout: callout
        }
    }

    /// Whether `channel`'s catalogue holds exactly `tag` (already canonical).
    public static func contains(_ tag: String, channel: VerificationChannel) -> Bool {
        switch channel {
        case .sms, .email: smsSet.contains(tag)
        case .callout: calloutSet.contains(tag)
        }
    }

    /// Whether `tag` matches `^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$` (at most one subtag, so
    /// `zh-Hans-CN` is ill-formed); failing it is `languages_invalid`.
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.utf8.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        guard (2...3).contains(parts[0].count), parts[0].allSatisfy(isASCIILetter) else { return false }
        guard parts.count == 2 else { return true }
        return (2...8).contains(parts[1].count) && parts[1].allSatisfy { isASCIILetter($0) || isASCIIDigit($0) }
    }

    /// `tag` with its primary subtag lower-cased and its second subtag upper-cased
    /// (`EN-us` → `en-US`, `es-419` unchanged); an ill-formed tag comes back unchanged.
    ///
    /// The second subtag is upper-cased whatever its shape, as the note's rule says; a
    /// script-like subtag (`zh-hant` → `zh-HANT`) then simply matches no catalogue entry.
    public static func canonical(_ tag: String) -> String {
        guard isWellFormed(tag) else { return tag }
        let parts = tag.utf8.split(separator: UInt8(ascii: "-"), maxSplits: 1)
        var result = parts[0].map { $0 | 0x20 }
        if parts.count == 2 {
            result.append(UInt8(ascii: "-"))
            result += parts[1].map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The first requested tag whose canonical form is in `channel`'s catalogue, else `en-US`.
    ///
    /// Matching is exact on purpose: `pl` never picks `pl-PL`, because the vendor does not
    /// guess a region and clients compare the echoed tag with what they asked for.
    public static func resolve(_ requested: [String], channel: VerificationChannel) -> String {
        for tag in requested {
            // An ill-formed tag comes back unchanged and so can never equal a catalogue entry.
            let candidate = canonical(tag)
            if contains(candidate, channel: channel) { return candidate }
        }
        return fallback
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }
}
