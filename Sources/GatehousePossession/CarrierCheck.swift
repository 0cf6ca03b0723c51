import Foundation

/// Runs the operator's possession check (Mobile Auth): open the challenge's URL over the mobile network and
/// follow the operator's redirects to `redirectUri`. Replace it in tests with `ScriptedCarrierCheck`.
public protocol CarrierCheck: Sendable {
    /// Runs the check; never throws: whatever went wrong is an outcome the flow posts as evidence.
    func run(_ challenge: CarrierCheckChallenge) async -> CarrierCheckOutcome
}

/// What Gatehouse asked the device to open.
public struct CarrierCheckChallenge: Sendable, Equatable {
    /// The check's kind (`camara`; `test` never reaches a `CarrierCheck`).
    public var provider: String
    /// Where the operator's check starts.
    public var url: URL?
    /// The redirect that ends the walk; its query holds `code` and `state`, or `error`.
    public var redirectUri: URL?

    /// A challenge.
    public init(provider: String, url: URL?, redirectUri: URL?) {
        self.provider = provider
        self.url = url
        self.redirectUri = redirectUri
    }
}
