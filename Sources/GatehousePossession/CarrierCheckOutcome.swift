import Foundation
import GatehouseWire

/// How a carrier check ended; either way it is posted as evidence and Gatehouse decides (a failure falls to the code).
public enum CarrierCheckOutcome: Sendable, Equatable {
    /// The walk reached `redirectUri`, whose query carried these (or the walk broke: `error` is `redirect_error`).
    case redirected(code: String?, state: String?, error: String?)
    /// The check could not run: `no_cellular`, `vpn`, `timeout`.
    case unavailable(reason: String)

    /// The redirect chain broke: too many hops, a non-redirect answer, or a `Location` that leads nowhere.
    public static let redirectError = CarrierCheckOutcome.redirected(code: nil, state: nil, error: "redirect_error")
    /// No mobile data path (Wi-Fi only, airplane mode, no reachable operator host).
    public static let noCellular = CarrierCheckOutcome.unavailable(reason: "no_cellular")
    /// The operator did not answer in time.
    public static let timeout = CarrierCheckOutcome.unavailable(reason: "timeout")

    /// The evidence that reports this outcome for `provider`.
    func evidence(provider: String) -> PossessionWire.CarrierEvidence {
        switch self {
        case .redirected(let code, let state, let error): PossessionWire.CarrierEvidence(provider: provider, code: code, state: state, error: error)
        case .unavailable(let reason): PossessionWire.CarrierEvidence(provider: provider, error: reason)
        }
    }
}
