import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `SMTPDelivery` against a real SMTP server: `SMTPTestServer` (aiosmtpd in a child process),
/// plain and over TLS with a certificate authority generated for the test run.
@Suite struct SMTPDeliveryTests {
    static let authOptions = SMTPTestServer.Options(username: "mailer", password: "s3cret pass")

    static let body = "Your code is 123456.\n.a line that starts with a dot\n.\nGrüße — ✓ ünïcödé\ntrailing space \n=equals="

    static func message(to: String = "person@example.com", channel: OutboundMessage.Channel = .email) -> OutboundMessage {
        OutboundMessage(
            id: "msg-01", tenantId: "tenant-1", channel: channel, to: to, body: body,
            createdAt: Date(timeIntervalSince1970: 1_767_225_600))
    }

    static func delivery(
        port: UInt16, username: String? = nil, password: String? = nil, timeout: TimeInterval = 10,
        subject: String = "Your verification code", host: String = "127.0.0.1", security: SMTPDelivery.Security = .none,
        trusting authority: String? = nil
    ) -> SMTPDelivery {
        SMTPDelivery(
            host: host, port: port, from: "codes@gatehouse.test", username: username, password: password,
            security: security, timeout: timeout, clock: ManualClock(), subject: subject, extraTrustedCertificatePEM: authority)
    }

    @Test func messageArrivesWithEnvelopeHeadersAndDecodedBody() async throws {
        try await SMTPTestServer.with() { server in
            let delivery = Self.delivery(port: server.port, subject: "Dein Anmeldecode — ✓ bitte nicht weitergeben, gültig für zehn Minuten")
            try await delivery.deliver(Self.message())
            let received = try server.messages()
            #expect(received.count == 1)
            let mail = try #require(received.first)
            #expect(mail.mailFrom == "codes@gatehouse.test")
            #expect(mail.rcptTos == ["person@example.com"])
            #expect(mail.helo == "gatehouse.test")
            #expect(mail.headers["Date"] == "Thu, 01 Jan 2026 00:00:00 +0000")
            #expect(mail.headers["From"] == "codes@gatehouse.test")
            #expect(mail.headers["To"] == "person@example.com")
            #expect(mail.headers["Subject"] == "Dein Anmeldecode — ✓ bitte nicht weitergeben, gültig für zehn Minuten")
            #expect(mail.headers["Message-ID"] == "<msg-01@gatehouse.test>")
            #expect(mail.headers["MIME-Version"] == "1.0")
            #expect(mail.headers["Content-Transfer-Encoding"] == "quoted-printable")
            // Python's parser keeps the CRLF line ends of the decoded text.
            #expect(mail.body.replacingOccurrences(of: "\r\n", with: "\n") == Self.body + "\n")
            // On the wire: CRLF only, 7-bit only, no line over 78 characters, and the
            // dot lines arrived un-stuffed (the server removed exactly the dot we added).
            let lines = mail.raw.components(separatedBy: "\r\n")
            #expect(!mail.raw.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            #expect(mail.raw.unicodeScalars.allSatisfy { $0.isASCII })
            #expect(lines.allSatisfy { $0.utf8.count <= 76 })
            #expect(lines.contains("Content-Type: text/plain; charset=utf-8"))
            #expect(lines.contains(".a line that starts with a dot"))
            #expect(lines.contains("."))
            #expect(lines.contains("Subject: =?UTF-8?B?RGVpbiBBbm1lbGRlY29kZSDigJQg4pyTIGJpdHRlIG5pY2h0IHdl?="))
            #expect(lines.contains(" =?UTF-8?B?aXRlcmdlYmVuLCBnw7xsdGlnIGbDvHIgemVobiBNaW51dGVu?="))
        }
    }

    @Test func plainSubjectIsSentAsIs() async throws {
        try await SMTPTestServer.with() { server in
            try await Self.delivery(port: server.port).deliver(Self.message())
            let mail = try #require(try server.messages().first)
            #expect(mail.raw.contains("\r\nSubject: Your verification code\r\n"))
        }
    }

    @Test func fallsBackToHeloWhenEhloIsRefused() async throws {
        try await SMTPTestServer.with(.init(refusesEHLO: true)) { server in
            try await Self.delivery(port: server.port).deliver(Self.message())
            let mail = try #require(try server.messages().first)
            #expect(mail.helo == "gatehouse.test")
            #expect(mail.body.replacingOccurrences(of: "\r\n", with: "\n") == Self.body + "\n")
            // Without EHLO there is no AUTH to offer, so credentials cannot be honoured.
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: server.port, username: "mailer", password: "s3cret pass").deliver(Self.message())
            }
            #expect(error?.description.contains("no supported AUTH mechanism") == true)
        }
    }

    @Test func authPlainSucceedsAndWrongPasswordThrows() async throws {
        try await SMTPTestServer.with(Self.authOptions) { server in
            try await Self.delivery(port: server.port, username: "mailer", password: "s3cret pass").deliver(Self.message())
            #expect(try server.messages().first?.login == "mailer")
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: server.port, username: "mailer", password: "wrong").deliver(Self.message())
            }
            #expect(error?.description.contains("AUTH PLAIN refused: 535") == true)
            #expect(error?.description.contains("wrong") == false)
            #expect(try server.messages().count == 1)
        }
    }

    @Test func authLoginIsUsedWhenPlainIsNotOffered() async throws {
        try await SMTPTestServer.with(.init(username: "mailer", password: "s3cret pass", offersAuthPlain: false)) { server in
            try await Self.delivery(port: server.port, username: "mailer", password: "s3cret pass").deliver(Self.message())
            #expect(try server.messages().first?.login == "mailer")
            await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: server.port, username: "mailer", password: "nope").deliver(Self.message())
            }
        }
    }

    @Test func serverRequiringAuthRefusesAnonymousSender() async throws {
        try await SMTPTestServer.with(Self.authOptions) { server in
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: server.port).deliver(Self.message())
            }
            #expect(error?.description.contains("MAIL FROM refused: 530") == true)
        }
    }

    @Test func refusedRecipientThrows() async throws {
        try await SMTPTestServer.with() { server in
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: server.port).deliver(Self.message(to: "reject@example.com"))
            }
            #expect(error?.description.contains("RCPT TO refused: 550") == true)
            let received = try server.messages()
            #expect(received.isEmpty)
        }
    }

    /// A refusal is an answer, not silence: the error names it, where a wait for the 30 s
    /// timeout would have ended as "timed out".
    @Test func aRefusedConnectionIsReportedAsRefused() async throws {
        let port = try Listener.unusedPort()
        let error = await #expect(throws: DeliveryError.self) {
            try await Self.delivery(port: port, timeout: 30).deliver(Self.message())
        }
        #expect(error?.description.contains("refused") == true)
        #expect(error?.description.contains("timed out") == false)
    }

    /// A server that accepts and never speaks: the wait for its greeting is what times out
    /// (the connect itself succeeded), and the client then hangs up.
    @Test func aSilentServerEndsInATimeoutAndAHangUp() async throws {
        let listener = try Listener()  // completes the TCP handshake, then never says a word
        let error = await #expect(throws: DeliveryError.self) {
            try await Self.delivery(port: listener.port, timeout: 0.5).deliver(Self.message())
        }
        #expect(error?.description == "SMTP timed out waiting for reply from 127.0.0.1:\(listener.port)")
        #expect(try await offPool { listener.pendingConnectionWasClosed() })
    }

    @Test func headerInjectionIsRefusedBeforeConnecting() async throws {
        let listener = try Listener()
        for recipient in ["person@example.com\r\nBcc: other@example.com", "person@example.com>\nRCPT TO:<x@y.z", "no-at-sign", ""] {
            await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: listener.port).deliver(Self.message(to: recipient))
            }
        }
        await #expect(throws: DeliveryError.self) {
            try await Self.delivery(port: listener.port, subject: "Hi\r\nBcc: other@example.com").deliver(Self.message())
        }
        #expect(!listener.hasPendingConnection())
    }

    @Test func nonEmailChannelsAndPlainAuthToRemoteHostsAreRefusedBeforeConnecting() async throws {
        let listener = try Listener()
        for channel in [OutboundMessage.Channel.sms, .voice] {
            let error = await #expect(throws: DeliveryError.self) {
                try await Self.delivery(port: listener.port).deliver(Self.message(to: "15550100", channel: channel))
            }
            #expect(error?.description.contains("email only") == true)
        }
        // A password in plain text may only go to this machine; anything else is refused
        // before a name is even resolved.
        let error = await #expect(throws: DeliveryError.self) {
            try await Self.delivery(port: listener.port, username: "mailer", password: "s3cret pass", host: "mail.example.invalid")
                .deliver(Self.message())
        }
        #expect(error?.description.contains("AUTH without TLS") == true)
        #expect(!listener.hasPendingConnection())
    }

    @Test func passwordNeverAppearsWhenTheProviderIsPrinted() {
        let delivery = Self.delivery(port: 25, username: "mailer", password: "s3cret pass")
        var dumped = ""
        dump(delivery, to: &dumped)
        for text in [String(describing: delivery), String(reflecting: delivery), "\(delivery)", dumped] {
            #expect(!text.contains("s3cret"))
            #expect(text.contains("mailer"))
        }
    }
}

/// A loopback socket that listens but never accepts: the kernel completes each connect, and
/// then nothing is ever sent. Also tells whether anyone connected at all.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: UInt16

    init() throws {
        (fd, port) = try Self.bound()
        guard listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }

    /// A port nothing listens on (bound, read, released), so a connect there is refused.
    static func unusedPort() throws -> UInt16 {
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    private static func bound() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts the connection waiting in the backlog and reads it to its end: true when the
    /// client closed it (whatever it sent first), false when it stayed open for ten seconds.
    func pendingConnectionWasClosed() -> Bool {
        let connection = accept(fd, nil, nil)
        guard connection >= 0 else { return false }
        defer { close(connection) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// True when a connection is waiting in the backlog.
    func hasPendingConnection() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}

/// STARTTLS and implicit TLS against aiosmtpd with a certificate authority made for each test:
/// the chain and the host name are verified, and nothing is ever sent in plain text instead.
@Suite struct SMTPTLSDeliveryTests {
    typealias Base = SMTPDeliveryTests

    /// Runs `body` with fresh certificates and a server using them, then removes both.
    static func with(
        names: [String] = ["localhost", "127.0.0.1"], _ options: (TestCertificates) -> SMTPTestServer.Options,
        _ body: (SMTPTestServer, TestCertificates) async throws -> Void
    ) async throws {
        let certificates = try await TestCertificates.generate(names: names)
        defer { certificates.remove() }
        try await SMTPTestServer.with(options(certificates)) { try await body($0, certificates) }
    }

    @Test func startTLSDeliversWhenTheAuthorityIsTrusted() async throws {
        try await Self.with({ .init(security: .startTLS($0)) }) { server, certificates in
            // By name: SNI and the DNS name check.
            let delivery = Base.delivery(port: server.port, host: "localhost", security: .startTLS, trusting: certificates.authorityPEM)
            try await delivery.deliver(Base.message())
            let mail = try #require(try server.messages().first)
            #expect(mail.tls)
            #expect(mail.rcptTos == ["person@example.com"])
            #expect(mail.body.replacingOccurrences(of: "\r\n", with: "\n") == Base.body + "\n")
        }
    }

    @Test func implicitTLSDelivers() async throws {
        try await Self.with({ .init(security: .implicitTLS($0)) }) { server, certificates in
            // By address: the IP name check, no SNI.
            let delivery = Base.delivery(port: server.port, security: .tls, trusting: certificates.authorityPEM)
            try await delivery.deliver(Base.message())
            let mail = try #require(try server.messages().first)
            #expect(mail.tls)
            #expect(mail.tlsVersion == "TLSv1.2" || mail.tlsVersion == "TLSv1.3")
            #expect(mail.headers["Subject"] == "Your verification code")
        }
    }

    @Test func untrustedCertificateFails() async throws {
        try await Self.with({ .init(security: .implicitTLS($0)) }) { server, _ in
            let error = await #expect(throws: DeliveryError.self) {
                try await Base.delivery(port: server.port, security: .tls).deliver(Base.message())
            }
            #expect(error?.description.contains("unable to get local issuer certificate") == true, "\(String(describing: error))")
            let received = try server.messages()
            #expect(received.isEmpty)
        }
        try await Self.with({ .init(security: .startTLS($0)) }) { server, _ in
            await #expect(throws: DeliveryError.self) {
                try await Base.delivery(port: server.port, security: .startTLS).deliver(Base.message())
            }
            let received = try server.messages()
            #expect(received.isEmpty)
        }
    }

    @Test func certificateForAnotherHostFails() async throws {
        try await Self.with(names: ["mail.other.test"], { .init(security: .startTLS($0)) }) { server, certificates in
            for host in ["127.0.0.1", "localhost"] {
                let error = await #expect(throws: DeliveryError.self) {
                    try await Base.delivery(port: server.port, host: host, security: .startTLS, trusting: certificates.authorityPEM)
                        .deliver(Base.message())
                }
                // "hostname mismatch" or "IP address mismatch", from the verifier itself.
                #expect(error?.description.contains("mismatch") == true, "\(String(describing: error))")
            }
            let received = try server.messages()
            #expect(received.isEmpty)
        }
    }

    @Test func serverWithoutStartTLSIsNotUsedInPlainText() async throws {
        let certificates = try await TestCertificates.generate()
        defer { certificates.remove() }
        try await SMTPTestServer.with { server in
            let error = await #expect(throws: DeliveryError.self) {
                try await Base.delivery(port: server.port, security: .startTLS, trusting: certificates.authorityPEM).deliver(Base.message())
            }
            #expect(error?.description.contains("does not offer STARTTLS") == true)
            let received = try server.messages()
            #expect(received.isEmpty)
        }
    }

    @Test func authOverStartTLS() async throws {
        let options = { (certificates: TestCertificates) in
            SMTPTestServer.Options(username: "mailer", password: "s3cret pass", security: .startTLS(certificates))
        }
        try await Self.with(options) { server, certificates in
            try await Base.delivery(
                port: server.port, username: "mailer", password: "s3cret pass", security: .startTLS, trusting: certificates.authorityPEM
            ).deliver(Base.message())
            let mail = try #require(try server.messages().first)
            #expect(mail.login == "mailer" && mail.tls)
            // This server offers AUTH only after STARTTLS, so the plain attempt finds none.
            let error = await #expect(throws: DeliveryError.self) {
                try await Base.delivery(port: server.port, username: "mailer", password: "s3cret pass").deliver(Base.message())
            }
            #expect(error?.description.contains("no supported AUTH mechanism") == true)
            #expect(try server.messages().count == 1)
        }
    }

    @Test func unusableExtraCertificateIsAnError() async throws {
        try await Self.with({ .init(security: .implicitTLS($0)) }) { server, _ in
            let error = await #expect(throws: DeliveryError.self) {
                try await Base.delivery(port: server.port, security: .tls, trusting: "not a certificate").deliver(Base.message())
            }
            #expect(error?.description.contains("no PEM certificate") == true)
        }
    }
}
