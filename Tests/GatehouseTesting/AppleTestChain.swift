import Foundation
import GatehouseCrypto
import GatehouseFormats

/// A throwaway App Store-shaped certificate chain (P-384 root and intermediate, P-256 leaf) made
/// with the `openssl` CLI at test time, plus an ES256 signer that puts it in an `x5c` header.
///
/// Apple's libraries test with one fixed pre-generated CA; generating at runtime lets tests pick
/// validity windows and drop marker extensions without shipping binary fixtures.
public final class AppleTestChain: Sendable {
    /// The leaf marker OID ("App Store receipt signing").
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The intermediate marker OID (Apple WWDR intermediate).
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"

    /// What to generate; the defaults give a chain valid from a year ago to a year ahead.
    public struct Spec: Sendable {
        /// Start of the leaf's validity.
        public var leafNotBefore: Date
        /// End of the leaf's validity.
        public var leafNotAfter: Date
        /// Whether the leaf carries 1.2.840.113635.100.6.11.1.
        public var leafMarker: Bool
        /// Whether the intermediate carries 1.2.840.113635.100.6.2.1 (ignored when reusing one).
        public var intermediateMarker: Bool

        /// A spec; dates default to now ± 365 days.
        public init(
            leafNotBefore: Date = Date().addingTimeInterval(-365 * 86_400),
            leafNotAfter: Date = Date().addingTimeInterval(365 * 86_400),
            leafMarker: Bool = true, intermediateMarker: Bool = true
        ) {
            self.leafNotBefore = leafNotBefore
            self.leafNotAfter = leafNotAfter
            self.leafMarker = leafMarker
            self.intermediateMarker = intermediateMarker
        }
    }

    /// The self-signed root.
    public let root: Certificate
    /// The intermediate CA, issued by `root`.
    public let intermediate: Certificate
    /// The P-256 signing leaf, issued by `intermediate`.
    public let leaf: Certificate
    /// The leaf's private key, which signs test JWS.
    public let leafKey: P256PrivateKey
    /// The root as PEM, for a verifier's `extraTrustedRootPEM`.
    public let rootPEM: String
    // Kept so a variant chain can be issued under the same root or intermediate.
    private let rootKeyPEM: String
    private let intermediatePEM: String
    private let intermediateKeyPEM: String

    private init(files: [String: String], leafKeyPEM: String) throws {
        root = try Certificate(pem: files["root.pem"]!)
        intermediate = try Certificate(pem: files["int.pem"]!)
        leaf = try Certificate(pem: files["leaf.pem"]!)
        leafKey = try P256PrivateKey(pem: leafKeyPEM)
        rootPEM = files["root.pem"]!
        rootKeyPEM = files["root.key"]!
        intermediatePEM = files["int.pem"]!
        intermediateKeyPEM = files["int.key"]!
    }

    /// The `x5c` entries in Apple's order (leaf, intermediate, root), standard base64 of DER.
    public var x5c: [String] {
        [leaf, intermediate, root].map { Base64.encode($0.derRepresentation) }
    }

    /// Generates a chain; with `parent`, reuses its root (and its intermediate too when
    /// `reuseIntermediate` is true) so the variant stays trusted by the same root.
    public static func generate(
        _ spec: Spec = Spec(), under parent: AppleTestChain? = nil, reuseIntermediate: Bool = false
    ) async throws -> AppleTestChain {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("apple-test-chain-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let runner = OpenSSLRunner(directory: directory)
        try runner.write("ca.cnf", configuration(directory: directory.path))
        try runner.write("index.txt", "")
        // Distinct names per chain keep OpenSSL's by-name issuer lookup unambiguous when a test
        // trusts two roots at once.
        let label = String(UUID().uuidString.prefix(8))
        let far = Date().addingTimeInterval(20 * 365 * 86_400)
        let past = Date().addingTimeInterval(-10 * 365 * 86_400)

        if let parent {
            try runner.write("root.pem", parent.rootPEM)
            try runner.write("root.key", parent.rootKeyPEM)
        } else {
            try await runner.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "root.key"])
            try await runner.issue(
                name: "root", subject: "/O=Gatehouse Test/CN=Test Root \(label)", issuer: nil,
                extensions: "v3_root", digest: "sha384", from: past, to: far)
        }
        if let parent, reuseIntermediate {
            try runner.write("int.pem", parent.intermediatePEM)
            try runner.write("int.key", parent.intermediateKeyPEM)
        } else {
            try await runner.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "int.key"])
            try await runner.issue(
                name: "int", subject: "/O=Gatehouse Test/CN=Test Intermediate \(label)", issuer: "root",
                extensions: spec.intermediateMarker ? "v3_intermediate" : "v3_intermediate_plain",
                digest: "sha384", from: past, to: far)
        }
        try await runner.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "leaf.key"])
        try await runner.issue(
            name: "leaf", subject: "/O=Gatehouse Test/CN=Test Leaf \(label)", issuer: "int",
            extensions: spec.leafMarker ? "v3_leaf" : "v3_leaf_plain", digest: "sha384",
            from: spec.leafNotBefore, to: spec.leafNotAfter)

        var files: [String: String] = [:]
        for name in ["root.pem", "root.key", "int.pem", "int.key", "leaf.pem"] {
            files[name] = try runner.read(name)
        }
        return try AppleTestChain(files: files, leafKeyPEM: runner.read("leaf.key"))
    }

    /// Signs `payload` (JSON-serialized) with the leaf key under `{"alg":"ES256","x5c":…}`.
    /// Signs the payload of another compact JWS again with this chain (a forgery, or a stale leaf).
    public func resign(_ jws: String) throws -> String {
        let segment = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segment.count == 3, let data = Base64URL.decode(String(segment[1])),
              let payload = try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any]
        else { throw AppleTestChainError.notAJWS }
        return try sign(payload: payload)
    }

    public func sign(payload: [String: Any], x5c entries: [String]? = nil) throws -> String {
        try sign(payload: JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]), x5c: entries)
    }

    /// Signs raw payload bytes; `entries` replaces the default `x5c` (to test odd headers).
    public func sign(payload: Data, x5c entries: [String]? = nil) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "x5c": entries ?? x5c]
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys, .withoutEscapingSlashes])
        return try JWS.signES256(headerJSON: headerJSON, payload: payload, privateKey: leafKey)
    }

    /// The `openssl ca` configuration every generated certificate is issued under.
    static func configuration(directory: String) -> String {
        """
        [ req ]
        distinguished_name = dn
        prompt = no
        [ dn ]
        CN = unused
        [ ca ]
        default_ca = testca
        [ testca ]
        database = \(directory)/index.txt
        new_certs_dir = \(directory)
        serial = \(directory)/serial
        policy = policy_any
        unique_subject = no
        email_in_dn = no
        copy_extensions = none
        [ policy_any ]
        organizationName = optional
        commonName = supplied
        [ v3_root ]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [ v3_intermediate_plain ]
        basicConstraints = critical,CA:TRUE,pathlen:0
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [ v3_intermediate ]
        basicConstraints = critical,CA:TRUE,pathlen:0
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        1.2.840.113635.100.6.2.1 = DER:05:00
        [ v3_leaf_plain ]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [ v3_leaf ]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        1.2.840.113635.100.6.11.1 = DER:05:00

        """
    }
}

/// Runs `openssl` subcommands inside one scratch directory.
struct OpenSSLRunner {
    let directory: URL

    func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Makes a CSR for `name.key` and has `issuer` (nil: self-signed) sign it with `openssl ca`,
    /// the one CLI path in OpenSSL 3.0 that accepts explicit start and end dates.
    func issue(
        name: String, subject: String, issuer: String?, extensions: String, digest: String, from: Date, to: Date
    ) async throws {
        try write("serial", [UInt8].random(count: 8).hexString + "\n")
        try await run(["req", "-new", "-config", "ca.cnf", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr"])
        var arguments = [
            "ca", "-batch", "-notext", "-config", "ca.cnf", "-in", "\(name).csr", "-out", "\(name).pem",
            "-md", digest, "-extensions", extensions,
            "-startdate", Self.timestamp(from), "-enddate", Self.timestamp(to),
        ]
        if let issuer {
            arguments += ["-cert", "\(issuer).pem", "-keyfile", "\(issuer).key"]
        } else {
            arguments += ["-selfsign", "-keyfile", "\(name).key"]
        }
        try await run(arguments)
    }

    func run(_ arguments: [String]) async throws {
        // `openssl` resolves relative file names against its working directory, which
        // posix_spawn inherits from the test process, so scratch file names are made absolute.
        let files = ["ca.cnf", "root.key", "int.key", "leaf.key", "root.csr", "int.csr", "leaf.csr", "root.pem", "int.pem", "leaf.pem"]
        let resolved = arguments.map { files.contains($0) ? directory.appendingPathComponent($0).path : $0 }
        let process = try ChildProcess(
            path: Self.executable, arguments: resolved,
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path])
        guard let status = await process.wait(seconds: 30), status == 0 else {
            throw AppleTestChainError.openssl(arguments: arguments, output: process.text)
        }
    }

    static let executable: String = {
        let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/openssl"
    }()

    /// GeneralizedTime `YYYYMMDDHHMMSSZ`, which `openssl ca` turns into UTCTime where RFC 5280 asks.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss"
        return formatter.string(from: date) + "Z"
    }
}

/// A failed `openssl` run while generating a test chain.
public enum AppleTestChainError: Error {
    /// The command and everything it printed.
    case openssl(arguments: [String], output: String)
    /// `resign` was given something that is not a compact JWS with a JSON object payload.
    case notAJWS
}

extension [UInt8] {
    fileprivate static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        // A leading byte below 0x80 keeps the serial a positive INTEGER without padding.
        return (0..<count).map { index in UInt8.random(in: index == 0 ? 0x01...0x7F : 0...0xFF, using: &generator) }
    }
}
