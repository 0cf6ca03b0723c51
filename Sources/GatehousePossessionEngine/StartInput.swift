import Foundation
import GatehouseCore

/// What Start receives, in the engine's terms (the dialect decodes the wire into this).
public struct StartInput: Sendable, Equatable {
    public var flowType: String?
    public var phoneNumber: String?
    public var finalTargetUrl: String?
    public var ssn: String?
    public var dob: String?
    public var emailAddress: String?
    public var ipAddress: String?
    public var smsMessage: String?
    public var allowOTPRetry: Bool

    public init(
        flowType: String?, phoneNumber: String? = nil, finalTargetUrl: String? = nil, ssn: String? = nil, dob: String? = nil,
        emailAddress: String? = nil, ipAddress: String? = nil, smsMessage: String? = nil, allowOTPRetry: Bool = false
    ) {
        self.flowType = flowType
        self.phoneNumber = phoneNumber
        self.finalTargetUrl = finalTargetUrl
        self.ssn = ssn
        self.dob = dob
        self.emailAddress = emailAddress
        self.ipAddress = ipAddress
        self.smsMessage = smsMessage
        self.allowOTPRetry = allowOTPRetry
    }

    /// Checked, in the order Prove reports them; the number in E.164.
    func validated(environment: PossessionSettings.Environment) throws -> (number: String?, details: Flow.Details, otpLength: Int, challenge: Challenge?) {
        guard let flowType = nonEmpty(flowType) else { throw PossessionError.missing("flowType") }
        guard ["mobile", "desktop"].contains(flowType) else { throw PossessionError.invalid("flowType", .oneOf(["mobile", "desktop"])) }
        // Optional for both flow types, as in Prove's models: without it the device is asked for
        // it before a code is sent (the carrier check of test mode finds no number to decide by).
        let number = try nonEmpty(phoneNumber).map { try PossessionNumbers.e164($0, environment: environment, field: "phoneNumber") }
        var target: String?
        if flowType == "desktop" {
            guard let url = nonEmpty(finalTargetUrl) else { throw PossessionError.missing("finalTargetUrl") }
            target = url
        } else if let url = nonEmpty(finalTargetUrl) {
            target = url
        }
        if let target {
            let allowed = Set("-._+=/:?".unicodeScalars)
            guard target.count <= 128, target.unicodeScalars.allSatisfy({ ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) || allowed.contains($0) }),
                let url = URL(string: target), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme), url.host != nil
            else { throw PossessionError.invalid("finalTargetUrl", .targetURL(maxLength: 128)) }
        }
        let challenge = try Challenge(dob: nonEmpty(dob), ssn: nonEmpty(ssn))
        if let email = nonEmpty(emailAddress), !PossessionNumbers.isEmail(email) { throw PossessionError.invalid("emailAddress", .emailAddress) }
        if let ip = nonEmpty(ipAddress), !PossessionNumbers.isIPAddress(ip) { throw PossessionError.invalid("ipAddress", .ipv4OrIPv6Address) }
        let length = try nonEmpty(smsMessage).map(Self.codeLength(in:)) ?? 6
        let details = Flow.Details(
            emailAddress: nonEmpty(emailAddress), ipAddress: nonEmpty(ipAddress), finalTargetUrl: target, smsMessage: nonEmpty(smsMessage),
            allowOTPRetry: allowOTPRetry)
        return (number, details, length, challenge)
    }

    /// The length of the one run of `#` in an SMS text: 4 to 6.
    static func codeLength(in message: String) throws -> Int {
        guard message.count <= 160 else { throw PossessionError.invalid("smsMessage", .length(0...160)) }
        guard !PossessionText.hasHiddenCharacters(message) else {
            throw PossessionError.invalid("smsMessage", .noHiddenCharacters)
        }
        guard !message.contains("{{") else { throw PossessionError.invalid("smsMessage", .codeRunNotPlaceholder(4...6)) }
        let runs = message.split(whereSeparator: { $0 != "#" }).map(\.count)
        guard runs.count == 1, let length = runs.first, (4...6).contains(length) else {
            throw PossessionError.invalid("smsMessage", .codeRun(4...6))
        }
        return length
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

/// A date of birth or an SSN (full, or its last four), as Start or Challenge receive them.
struct Challenge: Codable, Sendable, Equatable {
    var dob: String?
    var ssn: String?

    init?(dob: String?, ssn: String?) throws {
        guard dob != nil || ssn != nil else { return nil }
        if let dob { guard BirthDate(dob) != nil else { throw PossessionError.invalid("dob", .dateOrPart) } }
        if let ssn {
            guard [4, 9].contains(ssn.utf8.count), ssn.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw PossessionError.invalid("ssn", .ssnOrLastFour)
            }
        }
        self.dob = dob
        self.ssn = ssn
    }
}
