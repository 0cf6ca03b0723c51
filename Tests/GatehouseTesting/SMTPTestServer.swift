import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One message as the test server received it: the envelope, the headers and the body as
/// Python's own MIME parser decoded them, and the raw text as it arrived.
public struct ReceivedMail: Decodable, Sendable {
    public let mailFrom: String
    public let rcptTos: [String]
    public let raw: String
    public let headers: [String: String]
    public let body: String
    /// The AUTH user name, when the client authenticated.
    public let login: String?
    public let helo: String?
    /// The TLS version (`TLSv1.3`) when the message came over TLS (implicit or STARTTLS).
    public let tlsVersion: String?
    public var tls: Bool { tlsVersion != nil }

    enum CodingKeys: String, CodingKey {
        case mailFrom = "mail_from", rcptTos = "rcpt_tos", raw, headers, body, login, helo, tlsVersion = "tls_version"
    }
}

/// A real SMTP server (aiosmtpd, installed by `scripts/install-deps.sh test`) in a child
/// process on 127.0.0.1, writing every accepted message to a JSON file.
///
/// ```swift
/// try await SMTPTestServer.with(.init(security: .startTLS(certificates))) { server in
///     ... deliver to 127.0.0.1:server.port ...
///     let mail = try server.messages()
/// }
/// ```
public final class SMTPTestServer: @unchecked Sendable {
    public enum Security: Sendable {
        /// Plain SMTP; STARTTLS is not offered.
        case none
        /// STARTTLS offered with this certificate; AUTH is then only offered after TLS.
        case startTLS(TestCertificates)
        /// TLS from the first byte with this certificate.
        case implicitTLS(TestCertificates)
    }

    public struct Options: Sendable {
        /// When set, AUTH is required and only this user name and password are accepted.
        public var username: String?
        public var password: String?
        /// False leaves AUTH PLAIN out, so clients must use AUTH LOGIN.
        public var offersAuthPlain: Bool
        /// True answers EHLO with 502, so clients must fall back to HELO.
        public var refusesEHLO: Bool
        public var security: Security
        /// Recipients starting with this prefix are refused with 550.
        public var refusedRecipientPrefix: String?

        public init(
            username: String? = nil, password: String? = nil, offersAuthPlain: Bool = true, refusesEHLO: Bool = false,
            security: Security = .none, refusedRecipientPrefix: String? = "reject"
        ) {
            self.username = username
            self.password = password
            self.offersAuthPlain = offersAuthPlain
            self.refusesEHLO = refusesEHLO
            self.security = security
            self.refusedRecipientPrefix = refusedRecipientPrefix
        }
    }

    static let script = #"""
    import email, email.policy, json, os, signal, socket, ssl, sys, time
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    out_dir, options = sys.argv[1], json.loads(sys.argv[2])
    # posix_spawn hands down the test runner's signal mask, which blocks SIGTERM; unblock it
    # (before any thread starts) so stop() ends the server at once.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    reject = options.get("reject_prefix")

    class Handler:
        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            if reject and address.startswith(reject):
                return "550 5.1.1 mailbox unavailable"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            raw = envelope.original_content
            tls_object = server.transport.get_extra_info("ssl_object")
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            record = {
                "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                "raw": raw.decode("utf-8", "replace"),
                "headers": {k: str(v) for k, v in msg.items()},
                "body": msg.get_content(),
                "login": session.auth_data.login.decode() if session.auth_data else None,
                "helo": session.host_name,
                # After STARTTLS the server's transport is the TLS one, so this covers both modes.
                "tls_version": tls_object.version() if tls_object else None,
            }
            path = os.path.join(out_dir, "%d.json" % len(os.listdir(out_dir)))
            with open(path + ".tmp", "w") as f:
                json.dump(record, f)
            os.rename(path + ".tmp", path)
            return "250 Message accepted"

    class HeloOnlyHandler(Handler):
        async def handle_EHLO(self, server, session, envelope, hostname, responses):
            return ["502 5.5.1 EHLO not implemented"]

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == options["username"].encode() and auth_data.password == options["password"].encode()
        # handled=False makes aiosmtpd answer 535 itself; auth_data lets handle_DATA see the login.
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    kwargs = {}
    tls = options.get("tls")
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(tls["certificate"], tls["key"])
        kwargs["ssl_context" if tls["mode"] == "implicit" else "tls_context"] = context
    if options.get("username") is not None:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=tls is not None)
        if not options.get("auth_plain", True):
            kwargs["auth_exclude_mechanism"] = ["PLAIN"]
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    handler = HeloOnlyHandler() if options.get("helo_only") else Handler()
    controller = Controller(handler, hostname="127.0.0.1", port=port, **kwargs)
    controller.start()  # returns once the server answers a probe connection
    print("READY", port, flush=True)
    signal.pause()  # serve until the test's SIGTERM
    """#

    private let process: ChildProcess
    public let port: UInt16
    private let directory: URL

    private init(process: ChildProcess, port: UInt16, directory: URL) {
        self.process = process
        self.port = port
        self.directory = directory
    }

    /// Starts a server, runs `body`, and stops the server whether or not `body` threw.
    public static func with(_ options: Options = Options(), _ body: (SMTPTestServer) async throws -> Void) async throws {
        let server = try await start(options)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    public static func start(_ options: Options = Options()) async throws -> SMTPTestServer {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-smtp-\(UUID().uuidString)")
        let mail = root.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        let scriptURL = root.appendingPathComponent("server.py")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let environment = ProcessInfo.processInfo.environment
        let python = try executable("python3")
        let process = try ChildProcess(
            path: python, arguments: [scriptURL.path, mail.path, try configuration(options)], environment: environment)
        if let line = await process.line(within: 20, where: { $0.hasPrefix("READY ") }), let port = UInt16(line.dropFirst(6)) {
            return SMTPTestServer(process: process, port: port, directory: mail)
        }
        if let status = await process.wait(seconds: 0) {
            try? FileManager.default.removeItem(at: root)
            throw TestSetupError("aiosmtpd exited (\(status)); run scripts/install-deps.sh test. Output: \(process.text)")
        }
        process.signal(SIGKILL)
        _ = await process.wait(seconds: 5)
        try? FileManager.default.removeItem(at: root)
        throw TestSetupError("aiosmtpd did not start within 20 s. Output: \(process.text)")
    }

    /// The options as the JSON the script reads.
    private static func configuration(_ options: Options) throws -> String {
        var object: [String: Any] = ["auth_plain": options.offersAuthPlain, "helo_only": options.refusesEHLO]
        if let prefix = options.refusedRecipientPrefix { object["reject_prefix"] = prefix }
        if let username = options.username {
            object["username"] = username
            object["password"] = options.password ?? ""
        }
        switch options.security {
        case .none: break
        case .startTLS(let certificates):
            object["tls"] = ["mode": "starttls", "certificate": certificates.certificatePath, "key": certificates.keyPath]
        case .implicitTLS(let certificates):
            object["tls"] = ["mode": "implicit", "certificate": certificates.certificatePath, "key": certificates.keyPath]
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// The first `name` on PATH.
    public static func executable(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw TestSetupError("\(name) not found on PATH")
    }

    /// Every message accepted so far, in arrival order.
    public func messages() throws -> [ReceivedMail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        return try names.sorted { Int($0.dropLast(5)) ?? 0 < Int($1.dropLast(5)) ?? 0 }.map {
            try JSONDecoder().decode(ReceivedMail.self, from: Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    public func stop() async {
        process.signal(SIGTERM)
        if await process.wait(seconds: 5) == nil {
            process.signal(SIGKILL)
            _ = await process.wait(seconds: 5)
        }
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}

/// A throwaway certificate authority and one server certificate it signed, made with the
/// `openssl` command in a temporary folder, so TLS tests verify a real chain without any
/// certificate checked into the repository.
public struct TestCertificates: Sendable {
    public let directory: URL
    /// The CA certificate, to trust in the client.
    public let authorityPEM: String
    public let certificatePath: String
    public let keyPath: String

    /// - Parameter names: the server certificate's subject alternative names; entries that
    ///   parse as IPv4 addresses become IP names, the rest DNS names.
    public static func generate(names: [String] = ["localhost", "127.0.0.1"]) async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let alternativeNames = names.map { name in
            name.split(separator: ".").count == 4 && name.split(separator: ".").allSatisfy({ UInt8($0) != nil })
                ? "IP:\(name)" : "DNS:\(name)"
        }
        let extensions = """
            subjectAltName=\(alternativeNames.joined(separator: ","))
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            """
        try extensions.write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        do {
            try await openssl(["req", "-x509"] + key + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=Gatehouse Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
            try await openssl(["req"] + key + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=\(names[0])"])
            try await openssl([
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-set_serial", String(UInt32.random(in: 1...UInt32.max)), "-days", "2", "-extfile", path("server.ext"),
                "-out", path("server.pem"),
            ])
            return TestCertificates(
                directory: directory, authorityPEM: try String(contentsOfFile: path("ca.pem"), encoding: .utf8),
                certificatePath: path("server.pem"), keyPath: path("server.key"))
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private static func openssl(_ arguments: [String]) async throws {
        let process = try ChildProcess(
            path: try SMTPTestServer.executable("openssl"), arguments: arguments, environment: ProcessInfo.processInfo.environment)
        guard let status = await process.wait(seconds: 30), status == 0 else {
            process.signal(SIGKILL)
            throw TestSetupError("openssl \(arguments.first ?? "") failed: \(process.text)")
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
