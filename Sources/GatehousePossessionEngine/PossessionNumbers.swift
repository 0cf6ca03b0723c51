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
        else { throw PossessionError(.phoneNumberInvalid, "\(field) is not a phone number", field: field) }
        switch environment {
        case .sandbox:
            guard number.isPossible else { throw PossessionError(.phoneNumberInvalid, "\(field) is not a possible number", field: field) }
        case .production:
            let textable: Set<PhoneLineType> = [.mobile, .fixedLineOrMobile, .voip, .personalNumber]
            guard number.isValid, textable.contains(number.lineType) else {
                throw PossessionError(.phoneNumberInvalid, "\(field) is not a mobile number", field: field)
            }
        }
        return number.e164
    }

    static func isEmail(_ text: String) -> Bool {
        guard text.utf8.count <= 254, let at = text.lastIndex(of: "@"), at != text.startIndex, text.index(after: at) != text.endIndex else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7f } && text[text.index(after: at)...].contains(".")
    }

    static func isIPAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 45, !text.contains("\0") else { return false }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
