import Foundation
import GatehouseClientCore

/// What `PossessionAuth.Builder` collected; one value shared by every authentication of an authenticator.
struct Configuration: Sendable {
    var steps: AppSteps
    var testMode = false
    /// Overrides the authToken's `iss`.
    var gatehouse: URL?
    var transport: (any Transport)?
    var carrierCheck: (any CarrierCheck)?
    var logger: (@Sendable (String) -> Void)?

    /// The check that runs when the app set none: over cellular on Apple platforms, except in test mode, whose
    /// sandbox operator answers over Wi-Fi too; over any network elsewhere.
    var effectiveCarrierCheck: any CarrierCheck {
        if let carrierCheck { return carrierCheck }
        #if canImport(Network)
        if !testMode { return CellularCarrierCheck() }
        #endif
        return RedirectFollowingCarrierCheck()
    }
}

/// The app's step objects. The seed's are plain classes that hop to the main queue themselves and
/// answer through their callback; one `PossessionAuth` may run several authentications at once, so
/// the SDK calls the steps one at a time across all of them, under `gate`.
// Safe: the step objects are set by the builder before `build()` and never replaced after; each is
// only called in `serially`, under one lock shared by every copy, so no two flows call the app's
// (non-Sendable) steps at once. A step's `execute` returns at once (its answer comes through the
// callback), so the lock is held for no longer than the app's own call; it is recursive, so a step
// that starts another authentication from inside `execute` does not deadlock.
struct AppSteps: @unchecked Sendable {
    var authFinish: any AuthFinishStep
    var otpStart: (any OtpStartStep)?
    var otpFinish: (any OtpFinishStep)?
    private let gate = NSRecursiveLock()

    init(authFinish: any AuthFinishStep) { self.authFinish = authFinish }

    /// Whether both OTP steps are set.
    var hasOTPFallback: Bool { otpStart != nil && otpFinish != nil }

    /// Runs `call` with the steps, one call at a time across every flow.
    func serially<T>(_ call: (AppSteps) throws -> T) rethrows -> T {
        gate.lock()
        defer { gate.unlock() }
        return try call(self)
    }
}
