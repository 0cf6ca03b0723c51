import Foundation

/// A carrier ("silent") check: what the device opens over cellular, and how the server
/// redeems what came back. Every failure but an invalid number falls to the code (Twilio's
/// SNA guidance: an SMS would fail for an invalid number too).
public protocol CarrierProvider: Sendable {
    /// The name devices see in `carrierCheck.provider`.
    var name: String { get }
    /// The address the device opens, carrying `state`.
    func authorizationURL(_ settings: CamaraSettings, state: String, phoneNumber: String?) -> URL
    /// Redeems the device's `code` and asks whether the device's line is `phoneNumber`.
    func verify(_ settings: CamaraSettings, clientSecret: String, code: String, phoneNumber: String) async -> CarrierResult
}

/// What a carrier check found.
public enum CarrierResult: Sendable, Equatable {
    /// The mobile network says the device's line is the number.
    case verified
    /// The network authenticated the device, and its line is another number.
    case notVerified
    /// The number is not one the operator can check; no code is sent either.
    case invalidNumber
    /// The check could not run (no cellular, VPN, the operator refused or failed); the reason is for the logs.
    case unavailable(String)
}

/// Test mode's carrier check, decided by the number's last digits like Vonage's silent-auth
/// sandbox: `00` or `99` → unavailable, else an even last digit → verified, odd → not verified.
enum TestModeCarrier {
    static let fixedCode = "1234"

    static func result(for number: String?) -> CarrierResult {
        guard let number, let last = number.last?.wholeNumberValue else { return .unavailable("no number") }
        if number.hasSuffix("00") || number.hasSuffix("99") { return .unavailable("test number ending 00 or 99") }
        return last % 2 == 0 ? .verified : .notVerified
    }
}
