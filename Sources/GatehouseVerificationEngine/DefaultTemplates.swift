/// The system default texts used when no template group supplies one: an SMS template per SMS
/// language and an announcement per callout language, each with the `{{CODE}}` placeholder.
///
/// SMS templates hold the placeholder exactly once (the wire promises that of `sms.template`).
/// Announcements say the code twice, because a listener who misses it cannot scroll back.
public enum DefaultTemplates {
    /// The SMS template for `language`; a tag outside the SMS catalogue gets the `en-US` text.
    public static func sms(for language: String) -> String {
        smsTemplates[language] ?? smsTemplates[LanguageCatalog.fallback]!
    }

    /// The callout announcement for `language`; a tag outside the callout catalogue gets the
    /// `en-US` text.
    public static func callout(for language: String) -> String {
        calloutTemplates[language] ?? calloutTemplates[LanguageCatalog.fallback]!
    }

    /// The default text for `language` on `channel`.
    public static func template(for language: String, channel: VerificationChannel) -> String {
        switch channel {
        case .sms, .email: sms(for: language)
        case .callout: callout(for: language)
        }
    }

    /// Every SMS default, keyed by catalogue tag.
    public static let smsTemplates: [String: String] = [
        "bg-BG": "Вашият код за потвърждение е {{CODE}}",
        "bs-BA": "Vaš verifikacijski kod je {{CODE}}",
        "cs-CZ": "Váš ověřovací kód je {{CODE}}",
        "da-DK": "Din bekræftelseskode er {{CODE}}",
        "de-DE": "Ihr Bestätigungscode lautet {{CODE}}",
        "el-GR": "Ο κωδικός επαλήθευσής σας είναι {{CODE}}",
        "en-GB": "Your verification code is {{CODE}}",
        "en-US": "Your verification code is {{CODE}}",
        "es-419": "Tu código de verificación es {{CODE}}",
        "es-ES": "Tu código de verificación es {{CODE}}",
        "et-EE": "Sinu kinnituskood on {{CODE}}",
        "fi-FI": "Vahvistuskoodisi on {{CODE}}",
        "fr-FR": "Votre code de vérification est {{CODE}}",
        "he-IL": "קוד האימות שלך הוא {{CODE}}",
        "hr-HR": "Vaš kôd za provjeru je {{CODE}}",
        "hu-HU": "Az Ön ellenőrző kódja: {{CODE}}",
        "is-IS": "Staðfestingarkóðinn þinn er {{CODE}}",
        "it-IT": "Il tuo codice di verifica è {{CODE}}",
        "ja-JP": "認証コードは{{CODE}}です",
        "ka-GE": "თქვენი დადასტურების კოდია {{CODE}}",
        "lt-LT": "Jūsų patvirtinimo kodas yra {{CODE}}",
        "lv-LV": "Jūsu verifikācijas kods ir {{CODE}}",
        "mk-MK": "Вашиот код за верификација е {{CODE}}",
        "ms-MY": "Kod pengesahan anda ialah {{CODE}}",
        "mt-MT": "Il-kodiċi ta' verifika tiegħek huwa {{CODE}}",
        "nb-NO": "Bekreftelseskoden din er {{CODE}}",
        "nl-NL": "Je verificatiecode is {{CODE}}",
        "pl-PL": "Twój kod weryfikacyjny to {{CODE}}",
        "pt-BR": "Seu código de verificação é {{CODE}}",
        "pt-PT": "O seu código de verificação é {{CODE}}",
        "ro-RO": "Codul tău de verificare este {{CODE}}",
        "ru-RU": "Ваш код подтверждения: {{CODE}}",
        "sk-SK": "Váš overovací kód je {{CODE}}",
        "sl-SI": "Vaša potrditvena koda je {{CODE}}",
        "sq-AL": "Kodi juaj i verifikimit është {{CODE}}",
        "sr-RS": "Ваш код за верификацију је {{CODE}}",
        "sv-SE": "Din verifieringskod är {{CODE}}",
        "th-TH": "รหัสยืนยันของคุณคือ {{CODE}}",
        "uk-UA": "Ваш код підтвердження: {{CODE}}",
        "zh-CN": "您的验证码是{{CODE}}",
        "zh-HK": "您的驗證碼是{{CODE}}",
    ]

    /// Every callout default, keyed by catalogue tag. Regional variants the note says share one
    /// recording (the Arabic, Spanish and Turkish tags) share one text.
    public static let calloutTemplates: [String: String] = [
        "af-ZA": "Jou verifikasiekode is {{CODE}}. Ek herhaal, jou kode is {{CODE}}.",
        "ar-AE": arabic,
        "ar-EG": arabic,
        "ar-SA": arabic,
        "bg-BG": "Вашият код за потвърждение е {{CODE}}. Повтарям, вашият код е {{CODE}}.",
        "bs-BA": "Vaš verifikacijski kod je {{CODE}}. Ponavljam, vaš kod je {{CODE}}.",
        "cs-CZ": "Váš ověřovací kód je {{CODE}}. Opakuji, váš kód je {{CODE}}.",
        "da-DK": "Din bekræftelseskode er {{CODE}}. Jeg gentager, din kode er {{CODE}}.",
        "de-DE": "Ihr Bestätigungscode lautet {{CODE}}. Ich wiederhole, Ihr Code lautet {{CODE}}.",
        "el-GR": "Ο κωδικός επαλήθευσής σας είναι {{CODE}}. Επαναλαμβάνω, ο κωδικός σας είναι {{CODE}}.",
        "en-GB": english,
        "en-US": english,
        "es-419": spanish,
        "es-ES": spanish,
        "et-EE": "Sinu kinnituskood on {{CODE}}. Kordan, sinu kood on {{CODE}}.",
        "fi-FI": "Vahvistuskoodisi on {{CODE}}. Toistan, koodisi on {{CODE}}.",
        "fr-FR": "Votre code de vérification est {{CODE}}. Je répète, votre code est {{CODE}}.",
        "he-IL": "קוד האימות שלך הוא {{CODE}}. שוב, הקוד שלך הוא {{CODE}}.",
        "hi-IN": "आपका सत्यापन कोड {{CODE}} है। एक बार फिर, आपका कोड {{CODE}} है।",
        "hr-HR": "Vaš kôd za provjeru je {{CODE}}. Ponavljam, vaš kôd je {{CODE}}.",
        "hu-HU": "Az Ön ellenőrző kódja: {{CODE}}. Ismétlem, az Ön kódja: {{CODE}}.",
        "id-ID": "Kode verifikasi Anda adalah {{CODE}}. Sekali lagi, kode Anda adalah {{CODE}}.",
        "is-IS": "Staðfestingarkóðinn þinn er {{CODE}}. Ég endurtek, kóðinn þinn er {{CODE}}.",
        "it-IT": "Il tuo codice di verifica è {{CODE}}. Ripeto, il tuo codice è {{CODE}}.",
        "ja-JP": "認証コードは{{CODE}}です。もう一度繰り返します。認証コードは{{CODE}}です。",
        "lt-LT": "Jūsų patvirtinimo kodas yra {{CODE}}. Kartoju, jūsų kodas yra {{CODE}}.",
        "lv-LV": "Jūsu verifikācijas kods ir {{CODE}}. Atkārtoju, jūsu kods ir {{CODE}}.",
        "mk-MK": "Вашиот код за верификација е {{CODE}}. Повторувам, вашиот код е {{CODE}}.",
        "ms-MY": "Kod pengesahan anda ialah {{CODE}}. Sekali lagi, kod anda ialah {{CODE}}.",
        "nb-NO": "Bekreftelseskoden din er {{CODE}}. Jeg gjentar, koden din er {{CODE}}.",
        "nl-NL": "Je verificatiecode is {{CODE}}. Ik herhaal, je code is {{CODE}}.",
        "pl-PL": "Twój kod weryfikacyjny to {{CODE}}. Powtarzam, Twój kod to {{CODE}}.",
        "pt-BR": "Seu código de verificação é {{CODE}}. Repetindo, seu código é {{CODE}}.",
        "pt-PT": "O seu código de verificação é {{CODE}}. Repito, o seu código é {{CODE}}.",
        "ro-RO": "Codul tău de verificare este {{CODE}}. Repet, codul tău este {{CODE}}.",
        "sk-SK": "Váš overovací kód je {{CODE}}. Opakujem, váš kód je {{CODE}}.",
        "sl-SI": "Vaša potrditvena koda je {{CODE}}. Ponavljam, vaša koda je {{CODE}}.",
        "sr-RS": "Ваш код за верификацију је {{CODE}}. Понављам, ваш код је {{CODE}}.",
        "sv-SE": "Din verifieringskod är {{CODE}}. Jag upprepar, din kod är {{CODE}}.",
        "sw-KE": "Nambari yako ya uthibitisho ni {{CODE}}. Narudia, nambari yako ni {{CODE}}.",
        "th-TH": "รหัสยืนยันของคุณคือ {{CODE}} ขอย้ำอีกครั้ง รหัสของคุณคือ {{CODE}}",
        "tl-PH": "Ang iyong verification code ay {{CODE}}. Uulitin ko, ang iyong code ay {{CODE}}.",
        "tr-CY": turkish,
        "tr-TR": turkish,
        "uk-UA": "Ваш код підтвердження: {{CODE}}. Повторюю, ваш код: {{CODE}}.",
        "ur-PK": "آپ کا تصدیقی کوڈ {{CODE}} ہے۔ ایک بار پھر، آپ کا کوڈ {{CODE}} ہے۔",
        "vi-VN": "Mã xác minh của bạn là {{CODE}}. Xin nhắc lại, mã của bạn là {{CODE}}.",
        "zh-CN": "您的验证码是{{CODE}}。重复一遍，您的验证码是{{CODE}}。",
        "zh-HK": "您的驗證碼是{{CODE}}。重複一次，您的驗證碼是{{CODE}}。",
    ]

    private static let english = "Your verification code is {{CODE}}. Again, your code is {{CODE}}."
    private static let spanish = "Tu código de verificación es {{CODE}}. Repito, tu código es {{CODE}}."
    private static let arabic = "رمز التحقق الخاص بك هو {{CODE}}. مرة أخرى، رمزك هو {{CODE}}."
    private static let turkish = "Doğrulama kodunuz {{CODE}}. Tekrar ediyorum, kodunuz {{CODE}}."
}
