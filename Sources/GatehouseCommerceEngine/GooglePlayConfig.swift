import Foundation
import GatehouseCrypto
import GatehouseFormats

/// A tenant's Google Play connection, as the operator sees it: never the service account's key.
public struct GooglePlayConfig: Sendable, Equatable {
    /// The app's package name (`com.example.app`).
    public var packageName: String?
    /// The service account the server calls the Play Developer API as; nil until a key is saved.
    public var clientEmail: String?
    /// SHA-256 of the saved key's public half, in hex: tells keys apart without showing one.
    public var keyFingerprint: String?
    /// The audience the Pub/Sub push subscription puts in its tokens (real-time developer notifications).
    public var pushAudience: String?
    /// The service account the push subscription signs its tokens as.
    public var pushServiceAccountEmail: String?
    /// Production connections refuse test purchases.
    public var production: Bool

    public var hasServiceAccountKey: Bool { clientEmail != nil }
}

/// Changes to a `GooglePlayConfig`; `nil` keeps a value, `.some(nil)` clears an optional one.
public struct GooglePlayConfigPatch: Sendable, Equatable {
    public var packageName: String?
    /// The JSON key file Google Cloud issues for a service account, whole.
    public var serviceAccountKey: String?
    public var pushAudience: String??
    public var pushServiceAccountEmail: String??
    public var production: Bool?
    public init() {}
}

/// The parts of a service account's JSON key file that the server signs with: read and checked
/// when saved (an RSA key that signs, an email to sign as), then kept sealed.
struct ServiceAccountKey: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let clientEmail: String
    let privateKeyID: String?
    let privateKey: String

    /// Names the account, never the key: a log line or a failed test's message may print it.
    var description: String { "ServiceAccountKey(\(clientEmail), <redacted>)" }
    var debugDescription: String { description }

    enum CodingKeys: String, CodingKey {
        case clientEmail = "client_email", privateKeyID = "private_key_id", privateKey = "private_key"
    }

    /// The key file's fields, or nil when `json` is not a service account's key whose RSA key signs.
    static func parse(_ json: String) -> (key: ServiceAccountKey, fingerprint: String)? {
        guard let object = (try? JSONReader.parse(Data(json.utf8)))?.object,
              object["type"]?.string == "service_account",
              let email = object["client_email"]?.string, isServiceAccountEmail(email),
              let pem = object["private_key"]?.string
        else { return nil }
        let keyID = object["private_key_id"]?.string
        guard keyID.map({ (1...200).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) } }) ?? true,
              let signer = try? RS256PrivateKey(pem: pem), (try? signer.signature(for: Array("gatehouse: key check".utf8))) != nil,
              let fingerprint = try? signer.publicKeyFingerprint()
        else { return nil }
        return (ServiceAccountKey(clientEmail: email, privateKeyID: keyID, privateKey: pem), fingerprint)
    }

    /// `name@project.iam.gserviceaccount.com` and the like: printable ASCII with one `@`
    /// between two non-empty parts, 3 to 254 characters.
    static func isServiceAccountEmail(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (3...254).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }
}

extension GooglePlayConfig {
    /// An Android application id: two or more dot-separated parts, each a letter followed by
    /// letters, digits or underscores, at most 255 characters in all.
    static func isPackageName(_ text: String) -> Bool {
        guard (3...255).contains(text.utf8.count) else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.utf8.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else { return false }
            return part.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
        }
    }
}
