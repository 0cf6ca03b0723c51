import Foundation
import GatehouseCrypto

/// A Google Cloud service account's JSON key file as the console downloads it, around a fresh
/// RSA key made with the `openssl` CLI: what a tenant pastes into its Google Play settings.
public struct GoogleServiceAccountKeyFile: Sendable {
    /// The file's text.
    public let json: String
    /// The service account's email.
    public let clientEmail: String
    /// The RSA key, as PEM.
    public let privateKeyPEM: String
    /// `private_key_id`, the `kid` of the tokens the key signs.
    public let privateKeyID: String
    /// The key's public half, as PEM (what Google publishes for the account).
    public let publicKeyPEM: String

    /// A new key for `clientEmail`.
    public static func generate(clientEmail: String = "play-api@gatehouse-test.iam.gserviceaccount.com") throws -> GoogleServiceAccountKeyFile {
        let run = try Command.run("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        guard run.status == 0 else { throw TestSetupError("openssl genpkey failed with status \(run.status)") }
        let pem = String(decoding: run.output, as: UTF8.self)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sa-\(UUID().uuidString).pem").path
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let publicHalf = try Command.run("/usr/bin/env", ["openssl", "pkey", "-in", path, "-pubout"])
        guard publicHalf.status == 0 else { throw TestSetupError("openssl pkey -pubout failed with status \(publicHalf.status)") }
        let keyID = SystemRandom().bytes(20).hexString
        let file: [String: String] = [
            "type": "service_account", "project_id": "gatehouse-test", "private_key_id": keyID, "private_key": pem,
            "client_email": clientEmail, "client_id": "104729384756102938475",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
            "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
            "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/" + clientEmail,
            "universe_domain": "googleapis.com",
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
        return GoogleServiceAccountKeyFile(
            json: json, clientEmail: clientEmail, privateKeyPEM: pem, privateKeyID: keyID,
            publicKeyPEM: String(decoding: publicHalf.output, as: UTF8.self))
    }
}
