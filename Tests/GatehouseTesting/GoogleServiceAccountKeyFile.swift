import Foundation
import Synchronization
import GatehouseCrypto

/// A Google Cloud service account's JSON key file as the console downloads it, around one of
/// the tests' RSA keys (``TestRSAKeys``, made with the `openssl` CLI): what a tenant pastes into
/// its Google Play settings. Each file has an id of its own.
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

    private static let handedOut = Mutex(0)

    /// A key file for `clientEmail`, whose key differs from each of `others` (a rotated key, an
    /// impostor's). The keys are taken in turn from a few made ahead, since making a 2048-bit
    /// RSA key costs the suite's two cores most of a second each time.
    public static func generate(
        clientEmail: String = "play-api@gatehouse-test.iam.gserviceaccount.com", distinctFrom others: [GoogleServiceAccountKeyFile] = []
    ) throws -> GoogleServiceAccountKeyFile {
        let taken = Set(others.map(\.privateKeyPEM))
        let free = TestRSAKeys.pairs.filter { !taken.contains($0.privatePEM) }
        guard !free.isEmpty else { throw TestSetupError("every test RSA key is among the \(others.count) to differ from") }
        let turn = handedOut.withLock { count in
            defer { count &+= 1 }
            return count
        }
        let (pem, publicPEM) = free[turn % free.count]
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
            publicKeyPEM: publicPEM)
    }
}
