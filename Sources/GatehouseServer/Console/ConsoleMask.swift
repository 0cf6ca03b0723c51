import Foundation

/// How the console shows end users' numbers and emails until an admin reveals one: enough to
/// tell them apart (the country code, the last digits, the first letter and the domain).
enum ConsoleMask {
    /// `+447400123480` (or the digits alone, as numbers are stored) → `+4474•••••480`.
    static func phone(_ number: String) -> String {
        let characters = Array(international(number))
        // At least four characters hidden, however short the number.
        let kept = max(0, characters.count - 4)
        let (lead, tail) = (min(5, kept - min(3, kept / 2)), min(3, kept / 2))
        return String(characters.prefix(lead)) + String(repeating: "•", count: characters.count - lead - tail) + String(characters.suffix(tail))
    }

    /// `ana@example.com` → `a•••@example.com`.
    static func email(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), at != address.startIndex else { return "•••" }
        return String(address[address.startIndex]) + "•••" + String(address[at...])
    }

    /// A number as people write it: the stored digits with their `+`.
    static func international(_ number: String) -> String {
        !number.isEmpty && number.utf8.allSatisfy { (0x30...0x39).contains($0) } ? "+" + number : number
    }

    /// A URL without what may be a credential: its user, password and query values.
    static func url(_ text: String) -> String {
        guard var parts = URLComponents(string: text) else { return "•••" }
        if parts.user != nil || parts.password != nil { (parts.user, parts.password) = ("•••", nil) }
        parts.queryItems = parts.queryItems?.map { URLQueryItem(name: $0.name, value: $0.value == nil ? nil : "•••") }
        return parts.string ?? "•••"
    }

    /// A phone number or an email, whichever it is.
    static func destination(_ value: String) -> String {
        value.contains("@") ? email(value) : phone(value)
    }
}
