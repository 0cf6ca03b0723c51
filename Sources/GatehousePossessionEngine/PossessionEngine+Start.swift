import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// `POST /v3/start`: a new flow, its one-time authToken, and `next` allowing Validate.
extension PossessionEngine {
    public struct Started: Sendable, Equatable {
        public let authToken: String
        public let correlationId: String
        public let next: String
    }

    /// Starts a flow for `caller`. `issuer` is the base URL devices reach this server at; it
    /// goes into the authToken for the SDK to call.
    public func start(_ input: StartInput, caller: Caller, issuer: String) async throws -> Started {
        let keys = try requireKeys()
        let now = self.now
        let id = environment.ids.next().lowercased
        let jti = environment.random.token(byteCount: 24)
        let settings = try await database.read { db in try Self.settings(db, tenantID: caller.tenantID).settings }
        let valid = try input.validated(environment: settings.environment)
        let expires = now.addingTimeInterval(Self.flowLifetime)
        let token = try AuthToken(
            iss: issuer, sub: id, aud: AuthToken.audience, env: settings.environment.rawValue, jti: jti, iat: Int(now.timeIntervalSince1970),
            exp: Int(expires.timeIntervalSince1970)
        ).signed(key: keys.tokenKey)
        let sealedChallenge = try valid.challenge.map { keys.box.seal(try StoredJSON.encode($0), context: Self.challengeContext(id)) }
        let details = try StoredJSON.encode(valid.details)
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO possession_flows (id, tenant_id, client_id, flow_type, environment, phone_number, details, sealed_challenge,
                  otp_length, otp_tries, auth_token_hash, test_mode, device_step, server_step, challenge_tries, created_at, expires_at,
                  updated_at, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, 0, ?, ?, ?, 0)
                """,
                [
                    id.sqlValue, caller.tenantID.sqlValue, caller.clientID.sqlValue, input.flowType!.sqlValue, settings.environment.rawValue.sqlValue,
                    valid.number.sqlValue, details.sqlValue, sealedChallenge.sqlValue, valid.otpLength.sqlValue, SHA256.hash(Data(jti.utf8)).sqlValue,
                    false.sqlValue, Flow.DeviceStep.begin.rawValue.sqlValue, Flow.ServerStep.validate.rawValue.sqlValue, now.sqlValue,
                    expires.sqlValue, now.sqlValue,
                ])
        }
        return Started(authToken: token, correlationId: id, next: Flow.ServerStep.validate.rawValue)
    }

    static func challengeContext(_ flowID: String) -> String { "possession-challenge\n\(flowID)" }
    static func prefillContext(_ flowID: String) -> String { "possession-prefill\n\(flowID)" }
}
