import Foundation

/// The device-facing possession API that only the `GatehousePossession` SDK calls, under
/// `/api/possession/v1`. `begin` spends the one-time `authToken` of Start and answers with a
/// device token bound to the same flow, which every later call carries as its bearer. Every
/// answer says which step comes next; refusals are Prove's `{"code":…,"message":…}`
/// (`ProveWire.ErrorBody`) with the codes of `PossessionWire.ErrorCode`.
public enum PossessionWire {
    /// Where the device API lives.
    public static let basePath = "/api/possession/v1"

    /// What the device must do next.
    public enum Next: String, Codable, Sendable, CaseIterable {
        /// Run the carrier check named in `carrierCheck`, then post its evidence.
        case carrierCheck = "carrier_check"
        /// Ask the user to confirm sending a code (and for the number, when `phoneNumberNeeded`).
        case otpStart = "otp_start"
        /// Ask the user for the code.
        case otpFinish = "otp_finish"
        /// Possession is proved: call AuthFinish with `authId`.
        case done
        /// The flow ended without proof (cancelled, codes used up, expired).
        case failed
    }

    /// `POST /begin` (bearer: the `authToken`).
    public struct BeginRequest: Codable, Sendable, Equatable {
        /// The app built the SDK with `withMobileAuthTestMode()`; refused unless the tenant is a sandbox.
        public var testMode: Bool
        /// The SDK's version, for the logs.
        public var sdkVersion: String?
        /// A begin request.
        public init(testMode: Bool, sdkVersion: String? = nil) {
            self.testMode = testMode
            self.sdkVersion = sdkVersion
        }
    }

    /// The answer to `begin`: the flow's device token and its first step.
    public struct Session: Codable, Sendable, Equatable {
        /// The bearer of every later device call of this flow.
        public var deviceToken: String
        /// What AuthFinish receives.
        public var authId: String
        /// Whether this flow runs in test mode (sandbox outcomes, fixed code).
        public var testMode: Bool
        public var step: Step
        /// A session.
        public init(deviceToken: String, authId: String, testMode: Bool, step: Step) {
            self.deviceToken = deviceToken
            self.authId = authId
            self.testMode = testMode
            self.step = step
        }
    }

    /// One step of the flow as the device sees it.
    public struct Step: Codable, Sendable, Equatable {
        public var next: Next
        /// With `otp_start`: whether the app must collect the number.
        public var phoneNumberNeeded: Bool?
        /// With `carrier_check`: what to run.
        public var carrierCheck: CarrierCheck?
        /// With `otp_finish`: the code's length.
        public var otpLength: Int?
        /// With `done`: what AuthFinish receives.
        public var authId: String?

        /// A step.
        public init(next: Next, phoneNumberNeeded: Bool? = nil, carrierCheck: CarrierCheck? = nil, otpLength: Int? = nil, authId: String? = nil) {
            self.next = next
            self.phoneNumberNeeded = phoneNumberNeeded
            self.carrierCheck = carrierCheck
            self.otpLength = otpLength
            self.authId = authId
        }
    }

    /// The carrier check to run: `test` (the sandbox decides by the number, nothing to open)
    /// or `camara` (open `url` over cellular, follow the operator's redirects until one goes
    /// to `redirectUri`, and post that redirect's `code`, `state` or `error`).
    public struct CarrierCheck: Codable, Sendable, Equatable {
        public var provider: String
        public var url: String?
        public var redirectUri: String?
        /// A check.
        public init(provider: String, url: String? = nil, redirectUri: String? = nil) {
            self.provider = provider
            self.url = url
            self.redirectUri = redirectUri
        }
    }

    /// `POST /carrier-check`: what the check produced. A device that could not run it at all
    /// (no cellular data, a VPN) posts `error` alone, and the flow falls to the code.
    public struct CarrierEvidence: Codable, Sendable, Equatable {
        public var provider: String
        public var code: String?
        public var state: String?
        /// `no_cellular`, `vpn`, `timeout`, `redirect_error`, or the operator's OAuth `error`.
        public var error: String?
        /// Evidence.
        public init(provider: String, code: String? = nil, state: String? = nil, error: String? = nil) {
            self.provider = provider
            self.code = code
            self.state = state
            self.error = error
        }
    }

    /// `POST /otp/start`: the number, when the step asked for it.
    public struct OTPStartRequest: Codable, Sendable, Equatable {
        public var phoneNumber: String?
        /// A request.
        public init(phoneNumber: String?) { self.phoneNumber = phoneNumber }
    }

    /// `POST /otp/finish`.
    public struct OTPFinishRequest: Codable, Sendable, Equatable {
        public var otp: String
        /// A request.
        public init(otp: String) { self.otp = otp }
    }

    /// The possession dialect's error codes (in `ProveWire.ErrorBody.code`). 1001, 1003 and 8008
    /// are Prove's own; the rest are Gatehouse's, documented in the README.
    public enum ErrorCode: Int, Sendable, CaseIterable {
        /// The body is not the JSON object the operation takes, or a field has the wrong type (400).
        case invalidRequest = 1000
        /// A required field is missing (400).
        case fieldMissing = 1001
        /// A field's value is not valid (400).
        case fieldInvalid = 1002
        /// The operation is not one the flow's `next` allows (403).
        case stepNotAllowed = 1003
        /// The flow's 15 minutes are over (403).
        case flowExpired = 1004
        /// The `authToken` was already used, or the bearer is not valid (401).
        case unauthorized = 1005
        /// The code is wrong; the user may try again (400).
        case otpInvalid = 1006
        /// The code's 2 minutes are over (400).
        case otpExpired = 1007
        /// No more tries for this code; the flow has failed (403).
        case otpAttemptsExhausted = 1008
        /// The phone number is not valid or cannot receive codes (400).
        case phoneNumberInvalid = 1009
        /// Test mode on a production tenant (403).
        case testModeRefused = 1010
        /// No such thing for this tenant (404).
        case notFound = 1011
        /// Too many requests, or too many codes or wrong codes for one number in the hour (429).
        case rateLimited = 1012
        /// A code went to this number moments ago (429).
        case otpSentRecently = 1013
        /// No such operation (404).
        case unknownOperation = 1014
        /// The service cannot answer now (503).
        case unavailable = 1500
        /// Prove's "Invalid Correlation ID": the `correlationId` of Validate, Challenge or Complete
        /// names no flow of this tenant's clients, another tenant's flow included (400).
        case correlationIdInvalid = 8008
    }
}
