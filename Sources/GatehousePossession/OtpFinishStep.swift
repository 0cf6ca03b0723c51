import Foundation

/// The app's step that collects the code the user received.
public protocol OtpFinishStep {
    /// Called off the main thread when the code is due; `otpError` is `.otpValidationError` after a wrong code.
    /// Answer once through `callback`.
    func execute(otpError: PossessionAuthError?, callback: OtpFinishStepCallback)
}

/// What OtpFinish collected.
public struct OtpFinishInput: Sendable, Equatable {
    /// The code as the user typed it.
    public var otp: String

    /// An input with the code.
    public init(otp: String) { self.otp = otp }
}

/// How OtpFinish answers; only the first call counts, from any thread.
public final class OtpFinishStepCallback: Sendable {
    private let answer: OneShot<StepAnswer<OtpFinishInput>>

    init(_ answer: OneShot<StepAnswer<OtpFinishInput>>) { self.answer = answer }

    /// The code the user entered (`nil` counts as a cancel).
    public func onSuccess(input: OtpFinishInput?) { answer.resolve(input.map { .success($0) } ?? .cancelled) }

    /// The user cancelled or went back: the authentication ends with `.cancelled`.
    public func onError() { answer.resolve(.cancelled) }
}
