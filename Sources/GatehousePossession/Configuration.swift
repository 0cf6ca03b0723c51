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

// Safe? The fields never change once `build()` has put the Configuration in a PossessionAuth, but they hold the app's
// non-Sendable step objects, and one PossessionAuth (documented as thread-safe, a singleton) may run several
// authentications at once, each on its own detached Task: two flows can call the same step object concurrently. That
// is only safe if the app's steps are thread-safe themselves (the seed's hop to the main queue); nothing here checks it.
/// The app's step objects. The seed's are plain classes that hop to the main queue themselves; the SDK calls
/// them one at a time per flow from its own Task, so they are carried across as they are.
struct AppSteps: @unchecked Sendable {
    var authFinish: any AuthFinishStep
    var otpStart: (any OtpStartStep)?
    var otpFinish: (any OtpFinishStep)?
}
