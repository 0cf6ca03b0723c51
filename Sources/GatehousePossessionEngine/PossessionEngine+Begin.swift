import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// The device's first call: the one-time authToken is spent for a device token bound to the
/// same flow, and the flow says where the device begins.
extension PossessionEngine {
    static let devicePrefix = "ghpd"

    public func begin(authToken: String, testMode: Bool) async throws -> DeviceSession {
        let keys = try requireKeys()
        let now = self.now
        // The token's own expiry is the flow's; the flow's is checked below, with its own code.
        guard let claims = AuthToken.verified(authToken, key: keys.tokenKey, now: now.addingTimeInterval(-Self.flowLifetime * 2)),
            let flowUUID = UUID(uuidString: claims.sub)
        else { throw PossessionError(.unauthorized, .badAuthToken) }
        let device = SecretToken.issue(prefix: Self.devicePrefix, id: flowUUID, random: environment.random)
        let state = environment.random.token(byteCount: 24)
        let carriers = self.carriers
        return try await database.write { db in
            guard var flow = try Flow.load(db, id: claims.sub),
                constantTimeEquals(SHA256.hash(Data(claims.jti.utf8)), flow.authTokenHash), try flow.tenantAllows(db)
            else { throw PossessionError(.unauthorized, .badAuthToken) }
            guard !flow.isExpired(at: now) else { throw PossessionError(.flowExpired, .flowExpired) }
            guard flow.authUsedAt == nil, flow.deviceStep == .begin else { throw PossessionError(.unauthorized, .authTokenUsed) }
            guard !testMode || flow.environment == .sandbox else {
                throw PossessionError(.testModeRefused, .testModeOnProduction)
            }
            flow.authUsedAt = now
            flow.deviceTokenHash = device.hash
            flow.testMode = testMode
            var check: DeviceProgress.CarrierCheck?
            let carrier = try Self.settings(db, tenantID: flow.tenantID).settings.carrier
            if testMode {
                flow.deviceStep = .carrierCheck
                flow.carrierProvider = "test"
                check = .init(provider: "test", url: nil, redirectUri: nil)
            } else if flow.flowType == "mobile", let carrier, let provider = carriers["camara"], flow.number != nil {
                flow.deviceStep = .carrierCheck
                flow.carrierProvider = provider.name
                flow.carrierStateHash = SHA256.hash(Data(state.utf8))
                check = .init(
                    provider: provider.name, url: provider.authorizationURL(carrier, state: state, phoneNumber: flow.number),
                    redirectUri: carrier.redirectUri)
            } else {
                flow.deviceStep = .otpStart
            }
            guard try flow.save(db, now: now) else { throw PossessionError(.unauthorized, .authTokenUsed) }
            var progress = flow.progress
            if let check { progress.carrierCheck = check }
            return DeviceSession(deviceToken: device.token, authId: flow.id, testMode: testMode, progress: progress)
        }
    }

    /// The flow a device token belongs to, locked for the caller's transaction unless it only reads.
    static func deviceFlow(_ db: any DatabaseConnection, deviceToken: String, now: Date, lock: Bool = true) throws -> Flow {
        guard let parsed = SecretToken.parse(deviceToken, prefix: devicePrefix), let flow = try Flow.load(db, id: parsed.id, lock: lock),
            let hash = flow.deviceTokenHash, parsed.matches(hash: hash), try flow.tenantAllows(db)
        else { throw PossessionError(.unauthorized, .badDeviceToken) }
        guard !flow.isExpired(at: now) else { throw PossessionError(.flowExpired, .flowExpired) }
        return flow
    }

    /// The user cancelled (an OTP step's `onError`): the flow fails, and AuthFinish never runs.
    public func cancel(deviceToken: String) async throws -> DeviceProgress {
        let now = self.now
        return try await database.write { db in
            var flow = try Self.deviceFlow(db, deviceToken: deviceToken, now: now)
            guard flow.deviceStep != .possessed, flow.deviceStep != .failed else { return flow.progress }
            flow.deviceStep = .failed
            flow.outcome = "cancelled"
            guard try flow.save(db, now: now) else { throw PossessionError(.stepNotAllowed, .flowChanged) }
            return flow.progress
        }
    }
}
