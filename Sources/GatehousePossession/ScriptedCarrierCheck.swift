import Foundation

/// A carrier check that answers from a script instead of the network, for tests and apps' own tests.
public struct ScriptedCarrierCheck: CarrierCheck {
    private let script: @Sendable (CarrierCheckChallenge) async -> CarrierCheckOutcome

    /// Always answers `outcome`.
    public init(_ outcome: CarrierCheckOutcome) { script = { _ in outcome } }

    /// Answers what `script` returns for each challenge.
    public init(_ script: @escaping @Sendable (CarrierCheckChallenge) async -> CarrierCheckOutcome) { self.script = script }

    /// The scripted outcome.
    public func run(_ challenge: CarrierCheckChallenge) async -> CarrierCheckOutcome { await script(challenge) }
}
