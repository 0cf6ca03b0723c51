import Foundation
import GatehouseCore
import GatehouseFormats

/// A phone number or email address in the one form accounts are keyed by.
struct Identifier {
    let channel: SignInChannel
    /// Phone: E.164 digits without `+`; email: lower-cased.
    let value: String
    let country: String?

    init(_ channel: SignInChannel, _ raw: String) throws {
        self.channel = channel
        switch channel {
        case .phone:
            // Possible, not necessarily assigned: apps and tests use fictional 555 numbers.
            guard let number = try? PhoneNumber.parse(raw.trimmingWhitespace), number.isPossible else {
                throw AccountsError(.phoneNumberInvalid)
            }
            value = String(number.e164.dropFirst())
            country = number.region
        case .email:
            let email = raw.trimmingWhitespace.lowercased()
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
                !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
                !email.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) })
            else { throw AccountsError(.emailInvalid) }
            value = email
            country = nil
        }
    }

    /// The column of `accounts` that holds it.
    var column: String { channel == .phone ? "phone" : "email" }
    var phone: String? { channel == .phone ? value : nil }
    var email: String? { channel == .email ? value : nil }
}
