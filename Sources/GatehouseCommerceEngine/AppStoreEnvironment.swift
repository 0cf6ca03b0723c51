/// The App Store environment a signed payload says it comes from, spelled as Apple writes it.
public enum AppStoreEnvironment: String, Codable, Sendable, CaseIterable {
    /// Real purchases.
    case production = "Production"
    /// TestFlight and sandbox accounts, signed by Apple's real chain.
    case sandbox = "Sandbox"
    /// Xcode StoreKit testing, signed by a local certificate.
    case xcode = "Xcode"
    /// Apple's library-internal testing environment.
    case localTesting = "LocalTesting"

    /// True for the environments only a non-production tenant may accept.
    public var isTestOnly: Bool { self == .xcode || self == .localTesting }
}
