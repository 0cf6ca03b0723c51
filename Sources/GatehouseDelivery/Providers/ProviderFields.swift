import GatehouseCore

/// Field values every phone adapter derives the same way from an `OutboundMessage`.
enum ProviderFields {
    /// The message's BCP-47 tag when it is well formed (`de-DE`, `pt-BR`), else `en-US`.
    static func spokenLanguage(_ tag: String?) -> String {
        guard let tag else { return "en-US" }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let letters = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isLetter } }
        let alphanumerics = { (part: Substring) in part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard (1...3).contains(parts.count), (2...3).contains(parts[0].count), letters(parts[0]),
              parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && alphanumerics($0) })
        else { return "en-US" }
        return tag
    }

    /// `+` and the digits, after checking they are 7 to 15 digits: providers want E.164
    /// (Vonage without the `+`), messages carry digits only.
    static func e164(_ digits: String) throws -> String {
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw DeliveryError("destination is not a phone number in E.164 digits")
        }
        return "+" + digits
    }
}
