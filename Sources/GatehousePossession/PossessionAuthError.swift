import Foundation
import GatehouseWire

/// Why an authentication ended without AuthFinish, or what a step is asked to correct.
public enum PossessionAuthError: Error, LocalizedError, Equatable, Sendable {
    /// The phone number given to OtpStart is not valid or cannot receive codes; OtpStart is asked again.
    case phoneNumberValidationError
    /// The code given to OtpFinish is wrong; OtpFinish is asked again.
    case otpValidationError
    /// The code's lifetime is over.
    case otpExpired
    /// No more tries for the code; the flow has failed.
    case otpAttemptsExhausted
    /// The app called `onError` in a step, or the authentication's Task was cancelled.
    case cancelled
    /// The flow's 15 minutes are over.
    case flowExpired
    /// The flow ended without proof of possession.
    case flowFailed
    /// The authToken is garbled, already used or expired (or a later call's device token was refused).
    case authTokenInvalid
    /// Test mode with a token that is not a sandbox's.
    case testModeRefused
    /// Gatehouse refused the call at this point of the flow.
    case stepNotAllowed
    /// The flow fell to OTP but the authenticator was built without `withOtpFallback`.
    case otpFallbackNotConfigured
    /// The request could not be sent or no answer came (offline, DNS, TLS, timeout).
    case network(String)
    /// Gatehouse refused with another code (its `code` and `message`, or the HTTP status when no body was readable).
    case server(code: Int, message: String)
    /// Gatehouse answered something that is not the expected shape.
    case unexpectedResponse(String)

    /// A sentence for logs and `localizedDescription`.
    public var errorDescription: String? {
        switch self {
        case .phoneNumberValidationError: "The phone number is not valid or cannot receive codes."
        case .otpValidationError: "The code is not correct."
        case .otpExpired: "The code has expired."
        case .otpAttemptsExhausted: "No more tries are left for the code."
        case .cancelled: "The authentication was cancelled."
        case .flowExpired: "The authentication has expired."
        case .flowFailed: "The authentication failed."
        case .authTokenInvalid: "The authToken is not valid, or was already used."
        case .testModeRefused: "Test mode is only allowed with a sandbox authToken."
        case .stepNotAllowed: "The step is not allowed at this point of the authentication."
        case .otpFallbackNotConfigured: "The authentication needs a code but no OTP steps were configured."
        case .network(let detail): "The network request failed: \(detail)"
        case .server(let code, let message): "Gatehouse refused (\(code)): \(message)"
        case .unexpectedResponse(let detail): "Gatehouse answered unexpectedly: \(detail)"
        }
    }
}

extension PossessionAuthError {
    /// The error a possession `ErrorBody` code means.
    init(code: Int, message: String) {
        switch PossessionWire.ErrorCode(rawValue: code) {
        case .stepNotAllowed: self = .stepNotAllowed
        case .flowExpired: self = .flowExpired
        case .unauthorized: self = .authTokenInvalid
        case .otpInvalid: self = .otpValidationError
        case .otpExpired: self = .otpExpired
        case .otpAttemptsExhausted: self = .otpAttemptsExhausted
        case .phoneNumberInvalid: self = .phoneNumberValidationError
        case .testModeRefused: self = .testModeRefused
        default: self = .server(code: code, message: message)
        }
    }

    /// Any error as one of ours: a cancelled Task reads as `.cancelled`, anything else unknown as `.network`.
    init(_ error: any Error) {
        if let known = error as? PossessionAuthError {
            self = known
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .network(String(describing: error))
        }
    }
}
