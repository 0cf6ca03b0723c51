import Foundation

/// The app's step that collects the phone number (when needed) and the user's consent to send a code.
public protocol OtpStartStep {
    /// Called off the main thread when a code is due; `phoneValidationError` is `.phoneNumberValidationError`
    /// when the number just given was refused. Answer once through `callback`.
    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback)
}

/// What OtpStart collected.
public struct OtpStartInput: Sendable, Equatable {
    /// The number to send the code to, in E.164 (`+12025550123`).
    public var phoneNumber: String

    /// An input with the number the user entered.
    public init(phoneNumber: String) { self.phoneNumber = phoneNumber }
}

/// How OtpStart answers; only the first call counts, from any thread.
public final class OtpStartStepCallback: Sendable {
    private let answer: OneShot<StepAnswer<OtpStartInput>>

    init(_ answer: OneShot<StepAnswer<OtpStartInput>>) { self.answer = answer }

    /// The user agreed to get a code: with the number when `phoneNumberNeeded`, else `nil`.
    public func onSuccess(input: OtpStartInput?) { answer.resolve(.success(input)) }

    /// The user cancelled or went back: the authentication ends with `.cancelled`.
    public func onError() { answer.resolve(.cancelled) }
}
