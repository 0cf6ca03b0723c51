import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// Phone possession checks with OTP fallback and pre-fill (seed 004, Prove's v3 shapes): API
/// clients and their bearer tokens, flows as durable state machines whose allowed next steps
/// are stored on the row, the device's carrier check and code, and the tenant's identity
/// directory. No HTTP here: codes, carrier providers and outbound calls are injected.
public final class PossessionEngine: Sendable {
    public let environment: Environment
    /// The verification engine's codes (wired in GatehouseServer).
    let codes: any OneTimeCodes
    /// Carrier check providers by name (`camara`); test mode is built in.
    let carriers: [String: any CarrierProvider]
    /// Seals dates of birth, SSNs and the pre-fill, and signs authTokens; without it no flow starts.
    let keys: PossessionKeys?

    /// Whether a carrier may be `development` (http, private addresses): only on a development server.
    let allowsDevelopmentCarriers: Bool
    /// The longest a carrier check may take, every hop and byte included; past it, the code follows.
    let carrierDeadline: TimeInterval

    public init(
        environment: Environment, codes: any OneTimeCodes, carriers: [any CarrierProvider], keys: PossessionKeys?, allowsDevelopmentCarriers: Bool,
        carrierDeadline: TimeInterval = 20
    ) {
        self.environment = environment
        self.carrierDeadline = carrierDeadline
        self.allowsDevelopmentCarriers = allowsDevelopmentCarriers
        self.codes = codes
        self.carriers = Dictionary(carriers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.keys = keys
    }

    var database: any Database { environment.database }
    var now: Date { environment.clock.now }

    func requireKeys() throws -> PossessionKeys {
        guard let keys else { throw PossessionError(.notConfigured, .noPossessionKey) }
        return keys
    }

    /// How long a flow lives after Start.
    public static let flowLifetime: TimeInterval = 15 * 60
    /// How long a code lives after it is sent.
    public static let codeLifetimeSeconds = 120
    /// Entries of one code when `allowOTPRetry` is set.
    public static let retryEntries = 3
    /// The bearer token of `/token`.
    public static let accessTokenLifetime = 3600
}

/// The possession engine's key: one 32-byte secret, from which the sealing box of identity
/// data and the authToken signing key are derived, so neither can stand in for the other.
public struct PossessionKeys: Sendable {
    let box: SecretBox
    let tokenKey: [UInt8]

    /// Keys derived from `secret` (32 bytes).
    public init(secret: [UInt8]) throws {
        box = try SecretBox(key: HMAC.sha256(key: secret, message: Array("gatehouse possession: seal".utf8)))
        tokenKey = HMAC.sha256(key: secret, message: Array("gatehouse possession: authToken".utf8))
    }
}
