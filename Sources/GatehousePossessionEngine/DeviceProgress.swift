import Foundation

/// What the device must do next, as the engine says it; the dialect writes it as `PossessionWire.Step`.
public struct DeviceProgress: Sendable, Equatable {
    public enum Next: String, Sendable {
        case carrierCheck = "carrier_check", otpStart = "otp_start", otpFinish = "otp_finish", done, failed
    }

    /// The carrier check to run: the provider, and for a network one the address and where it returns.
    public struct CarrierCheck: Sendable, Equatable {
        public let provider: String
        public let url: URL?
        public let redirectUri: URL?
    }

    public let next: Next
    public var phoneNumberNeeded: Bool?
    public var carrierCheck: CarrierCheck?
    public var otpLength: Int?
    public var authId: String?
}

/// The answer to `begin`.
public struct DeviceSession: Sendable, Equatable {
    public let deviceToken: String
    public let authId: String
    public let testMode: Bool
    public let progress: DeviceProgress
}

/// What the device posts after its carrier check.
public struct CarrierEvidence: Sendable, Equatable {
    public var provider: String
    public var code: String?
    public var state: String?
    public var error: String?

    public init(provider: String, code: String? = nil, state: String? = nil, error: String? = nil) {
        self.provider = provider
        self.code = code
        self.state = state
        self.error = error
    }
}

extension Flow {
    /// Where this flow's device stands, for any step but the carrier check (which only `begin` hands out).
    var progress: DeviceProgress {
        switch deviceStep {
        case .begin, .failed: DeviceProgress(next: .failed)
        case .carrierCheck: DeviceProgress(next: .carrierCheck, carrierCheck: .init(provider: carrierProvider ?? "test", url: nil, redirectUri: nil))
        case .otpStart: DeviceProgress(next: .otpStart, phoneNumberNeeded: phoneNumber == nil)
        case .otpFinish: DeviceProgress(next: .otpFinish, otpLength: usesFixedCode ? TestModeCarrier.fixedCode.count : otpLength)
        case .possessed: DeviceProgress(next: .done, authId: id)
        }
    }
}
