/// How the console shows end users' numbers and emails until an admin reveals one: enough to
/// tell them apart (the country code, the last digits, the first letter and the domain).
enum ConsoleMask {
    /// `+447400123480` (or the digits alone, as numbers are stored) → `+4474•••••480`.
    static func phone(_ number: String) -> String {
        let characters = Array(international(number))
        guard characters.count > 7 else { return String(repeating: "•", count: characters.count) }
        return String(characters.prefix(5)) + String(repeating: "•", count: characters.count - 8) + String(characters.suffix(3))
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

    /// A phone number or an email, whichever it is.
    static func destination(_ value: String) -> String {
        value.contains("@") ? email(value) : phone(value)
    }
}
