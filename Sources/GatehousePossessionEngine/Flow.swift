import Foundation
import GatehouseDatabase

/// One possession flow as stored: what Start gave, where the device is (`deviceStep`) and
/// which server operation may come next (`serverStep`). Every change moves `version` on, and
/// every change is written only if the row still has the version it was read with.
struct Flow: Sendable {
    /// The device's side: begin, then the carrier check or the code, then possessed or failed.
    enum DeviceStep: String, Sendable {
        case begin, carrierCheck = "carrier_check", otpStart = "otp_start", otpFinish = "otp_finish", possessed, failed
    }

    /// The server-to-server side: the one operation `next` allows.
    enum ServerStep: String, Sendable {
        case validate = "v3-validate", challenge = "v3-challenge", complete = "v3-complete", done
    }

    /// What Start said besides the number, kept as JSON (no identity data: that is sealed apart).
    struct Details: Codable, Sendable, Equatable {
        var emailAddress: String?
        var ipAddress: String?
        var finalTargetUrl: String?
        var smsMessage: String?
        var allowOTPRetry: Bool
    }

    let id: String
    let tenantID: String
    let clientID: String
    let flowType: String
    let environment: PossessionSettings.Environment
    var phoneNumber: String?
    var possessedNumber: String?
    let details: Details
    let sealedChallenge: String?
    let otpLength: Int
    var otpTries: Int
    var otpExpiresAt: Date?
    let authTokenHash: [UInt8]
    var authUsedAt: Date?
    var deviceTokenHash: [UInt8]?
    var testMode: Bool
    var deviceStep: DeviceStep
    var carrierProvider: String?
    var carrierStateHash: [UInt8]?
    var serverStep: ServerStep
    var challengeTries: Int
    var sealedPrefill: String?
    var outcome: String?
    let createdAt: Date
    let expiresAt: Date
    let version: Int

    init(row: Row) throws {
        id = try row.get("id")
        tenantID = try row.get("tenant_id")
        clientID = try row.get("client_id")
        flowType = try row.get("flow_type")
        environment = PossessionSettings.Environment(rawValue: try row.get("environment")) ?? .production
        phoneNumber = try row.get("phone_number")
        possessedNumber = try row.get("possessed_number")
        details = try JSONDecoder().decode(Details.self, from: Data((try row.get("details") as String).utf8))
        sealedChallenge = try row.get("sealed_challenge")
        otpLength = try row.get("otp_length")
        otpTries = try row.get("otp_tries")
        otpExpiresAt = try row.get("otp_expires_at")
        authTokenHash = try row.get("auth_token_hash")
        authUsedAt = try row.get("auth_used_at")
        deviceTokenHash = try row.get("device_token_hash")
        testMode = try row.get("test_mode")
        deviceStep = DeviceStep(rawValue: try row.get("device_step")) ?? .failed
        carrierProvider = try row.get("carrier_provider")
        carrierStateHash = try row.get("carrier_state_hash")
        serverStep = ServerStep(rawValue: try row.get("server_step")) ?? .done
        challengeTries = try row.get("challenge_tries")
        sealedPrefill = try row.get("sealed_prefill")
        outcome = try row.get("outcome")
        createdAt = try row.get("created_at")
        expiresAt = try row.get("expires_at")
        version = try row.get("version")
    }

    func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Whether the flow's tenant still allows it: a disabled tenant's flows stop where they are,
    /// and so do a sandbox's once it is made a production tenant (no fixed code there).
    func tenantAllows(_ db: any DatabaseConnection) throws -> Bool {
        guard let row = try db.queryOne(
            "SELECT s.environment FROM tenants t LEFT JOIN possession_settings s ON s.tenant_id = t.id WHERE t.id = ? AND t.disabled_at IS NULL",
            tenantID)
        else { return false }
        let current: String? = try row.get("environment")
        return environment == .production || current == PossessionSettings.Environment.sandbox.rawValue
    }

    /// Whether the code is the fixed test one and nothing is sent: test mode, and every sandbox
    /// flow (like Prove's sandbox, which sends no SMS), so a sandbox cannot text arbitrary numbers.
    var usesFixedCode: Bool { testMode || environment == .sandbox }

    /// The number the code goes to and the carrier checks: the one proved, else the one given.
    var number: String? { possessedNumber ?? phoneNumber }

    /// The flow, locked until the caller's transaction ends unless `lock` is false (a read).
    static func load(_ db: any DatabaseConnection, id: String, tenantID: String? = nil, lock locking: Bool = true) throws -> Flow? {
        let lock = locking ? db.dialect.forUpdate : ""
        if let tenantID {
            return try db.queryOne("SELECT * FROM possession_flows WHERE id = ? AND tenant_id = ?" + lock, id, tenantID).map(Flow.init(row:))
        }
        return try db.queryOne("SELECT * FROM possession_flows WHERE id = ?" + lock, id).map(Flow.init(row:))
    }

    /// Writes the mutable fields back if the row is still at `version`; false if another
    /// request changed it first.
    func save(_ db: any DatabaseConnection, now: Date) throws -> Bool {
        try db.execute(
            """
            UPDATE possession_flows SET phone_number = ?, possessed_number = ?, otp_tries = ?, otp_expires_at = ?, auth_used_at = ?,
              device_token_hash = ?, test_mode = ?, device_step = ?, carrier_provider = ?, carrier_state_hash = ?, server_step = ?,
              challenge_tries = ?, sealed_prefill = ?, outcome = ?, updated_at = ?, version = version + 1
            WHERE id = ? AND version = ?
            """,
            [
                phoneNumber.sqlValue, possessedNumber.sqlValue, otpTries.sqlValue, otpExpiresAt.sqlValue, authUsedAt.sqlValue,
                deviceTokenHash.sqlValue, testMode.sqlValue, deviceStep.rawValue.sqlValue, carrierProvider.sqlValue, carrierStateHash.sqlValue,
                serverStep.rawValue.sqlValue, challengeTries.sqlValue, sealedPrefill.sqlValue, outcome.sqlValue, now.sqlValue, id.sqlValue,
                version.sqlValue,
            ]) == 1
    }
}
