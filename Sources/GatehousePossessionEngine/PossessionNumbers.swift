import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers and addresses as the possession dialect accepts them.
enum PossessionNumbers {
    /// E.164 of a number given with or without `+1` (US and Canada) or with `+cc`. Production
    /// needs a valid number that can take an SMS; a sandbox any possible one, since Prove's
    /// test numbers (`+1 200 …`) are in no numbering plan.
    static func e164(_ raw: String, environment: PossessionSettings.Environment, field: String) throws -> String {
        guard raw.utf8.count <= 32, !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            let number = try? PhoneNumber.parse(raw, defaultRegion: "US")
        else { throw PossessionError(.phoneNumberInvalid, .phoneNumber(field, .notANumber)) }
        switch environment {
        case .sandbox:
            guard number.isPossible else { throw PossessionError(.phoneNumberInvalid, .phoneNumber(field, .notPossible)) }
        case .production:
            let textable: Set<PhoneLineType> = [.mobile, .fixedLineOrMobile, .voip, .personalNumber]
            guard number.isValid, textable.contains(number.lineType) else {
                throw PossessionError(.phoneNumberInvalid, .phoneNumber(field, .notMobile))
            }
        }
        return number.e164
    }

    /// One `@`, a local part, and a domain of dot-separated labels; no spaces, controls or
    /// invisible format characters (which could make one address look like another).
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, !PossessionText.hasHiddenCharacters(text),
            !text.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
    }

    static func isIPAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 45, !text.contains("\0") else { return false }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
