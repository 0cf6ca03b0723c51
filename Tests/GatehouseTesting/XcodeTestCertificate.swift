import Foundation
import GatehouseCrypto
import GatehouseFormats

/// A stand-in for the certificate Xcode's StoreKit testing signs with: one self-signed P-256
/// certificate named "StoreKit Testing in Xcode", without Apple's marker OIDs, made with the
/// `openssl` CLI at test time like `AppleTestChain`.
public final class XcodeTestCertificate: Sendable {
    /// The self-signed certificate.
    public let certificate: Certificate
    /// The certificate as PEM, as a tenant pins it (`xcodeCertificatePEM`).
    public let pem: String
    /// Its private key, which signs test JWS.
    public let key: P256PrivateKey

    private init(pem: String, keyPEM: String) throws {
        certificate = try Certificate(pem: pem)
        self.pem = pem
        key = try P256PrivateKey(pem: keyPEM)
    }

    /// Generates a certificate valid from `notBefore` to `notAfter` (default: now ± 365 days).
    public static func generate(
        notBefore: Date = Date().addingTimeInterval(-365 * 86_400), notAfter: Date = Date().addingTimeInterval(365 * 86_400)
    ) async throws -> XcodeTestCertificate {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("xcode-test-certificate-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let runner = OpenSSLRunner(directory: directory)
        try runner.write("ca.cnf", AppleTestChain.configuration(directory: directory.path))
        try runner.write("index.txt", "")
        try await runner.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "leaf.key"])
        try await runner.issue(
            name: "leaf", subject: "/CN=StoreKit Testing in Xcode", issuer: nil, extensions: "v3_leaf_plain", digest: "sha256",
            from: notBefore, to: notAfter)
        return try XcodeTestCertificate(pem: runner.read("leaf.pem"), keyPEM: runner.read("leaf.key"))
    }

    /// Signs raw payload bytes under the header Xcode writes: ES256, this one certificate in `x5c`.
    public func sign(payload: Data) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "kid": "Apple_Xcode_Key", "x5c": [Base64.encode(certificate.derRepresentation)]]
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys, .withoutEscapingSlashes])
        return try JWS.signES256(headerJSON: headerJSON, payload: payload, privateKey: key)
    }

    /// Signs a payload dictionary (JSON-serialized with sorted keys).
    public func sign(payload: [String: Any]) throws -> String {
        try sign(payload: JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
    }
}
