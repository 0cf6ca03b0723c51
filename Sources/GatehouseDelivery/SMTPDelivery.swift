import Foundation
import GatehouseCore
import GatehouseDatabase

/// Sends `.email` messages to an SMTP server (RFC 5321) as UTF-8 plain-text mail (RFC 5322,
/// MIME quoted-printable), one connection per message.
///
/// `.startTLS` and `.tls` use OpenSSL with TLS 1.2 or newer and always verify the server's
/// certificate chain and host name; `.startTLS` fails rather than continue in plain text when
/// the server does not offer STARTTLS. Credentials are only sent over TLS, or over a plain
/// connection (`.none`) to a loopback host, where nothing crosses the network.
public struct SMTPDelivery: MessageDelivery, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How the connection is protected.
    public enum Security: String, Sendable {
        /// Plain TCP; only for a relay on a trusted network (or localhost).
        case none
        /// Plain TCP upgraded with STARTTLS (RFC 3207), usually port 587.
        case startTLS
        /// TLS from the first byte (RFC 8314 implicit TLS), usually port 465.
        case tls
    }

    let host: String
    let port: UInt16
    let from: String
    let username: String?
    let password: String?
    let security: Security
    let timeout: TimeInterval
    let totalTimeout: TimeInterval?
    let clock: any Clock
    let subject: String
    let extraTrustedCertificatePEM: String?

    /// Runs the blocking socket work off the Swift concurrency pool, whose few threads must
    /// never wait on a slow mail server: a thread of its own per conversation while every one
    /// is busy (a concurrent DispatchQueue is as wide as the CPUs on Linux, so two stuck mail
    /// servers would hold up every other message), up to 32 at once.
    private static let threads = BlockingThreadPool(name: "gatehouse.smtp-delivery", maxThreads: 32)

    /// - Parameters:
    ///   - from: the bare sender address (`codes@example.com`), used for the envelope and `From`.
    ///   - username, password: when both are given, the client authenticates with AUTH PLAIN or LOGIN.
    ///   - timeout: seconds allowed for the connect and for each read or write.
    ///   - totalTimeout: seconds allowed for the whole conversation, connect to QUIT; nil for no
    ///     bound but the steps'. A dozen steps of `timeout` each would outlast a delivery lease.
    ///   - clock: dates the `Date` header.
    ///   - subject: the `Subject` of every message this provider sends.
    ///   - extraTrustedCertificatePEM: PEM certificates (e.g. a private CA) trusted in addition
    ///     to the system roots; verification itself stays on, host name check included.
    public init(
        host: String, port: UInt16, from: String, username: String? = nil, password: String? = nil,
        security: Security, timeout: TimeInterval = 30, totalTimeout: TimeInterval? = nil, clock: any Clock,
        subject: String = "Your verification code", extraTrustedCertificatePEM: String? = nil
    ) {
        self.extraTrustedCertificatePEM = extraTrustedCertificatePEM
        self.host = host
        self.port = port
        self.from = from
        self.username = username
        self.password = password
        self.security = security
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.clock = clock
        self.subject = subject
    }

    public func deliver(_ message: OutboundMessage) async throws {
        let envelope = try envelope(for: message)
        let host = host, port = port, timeout = timeout, security = security, pem = extraTrustedCertificatePEM
        let until = totalTimeout.map { TCPTransport.deadline(after: $0) } ?? .max
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Self.threads.run {
                do {
                    let tcp = try TCPTransport.connect(host: host, port: port, timeout: timeout, until: until)
                    let conversation = SMTPConversation(transport: tcp, security: security) { _ in
                        try TLSTransport.handshake(over: tcp, host: host, extraTrustedCertificatePEM: pem)
                    }
                    defer { conversation.close() }
                    try conversation.deliver(envelope)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Everything that can be checked without the network, so a bad message is refused
    /// before a connection is opened.
    func envelope(for message: OutboundMessage) throws -> SMTPEnvelope {
        guard message.channel == .email else {
            throw DeliveryError("SMTP delivery sends email only, not \(message.channel.rawValue)")
        }
        try SMTPMessageFormat.validateAddress(from, role: "sender")
        try SMTPMessageFormat.validateAddress(message.to, role: "recipient")
        try SMTPMessageFormat.validateSubject(subject)
        let credentials: (username: String, password: String)?
        switch (username, password) {
        case let (username?, password?):
            // A NUL would split the AUTH PLAIN token differently than intended; CR/LF would
            // end the AUTH LOGIN line early.
            guard !(username + password).unicodeScalars.contains(where: { $0.value == 0 || $0 == "\r" || $0 == "\n" }) else {
                throw DeliveryError("SMTP credentials contain NUL, CR or LF")
            }
            credentials = (username, password)
        case (nil, nil):
            credentials = nil
        default:
            throw DeliveryError("SMTP username and password must be given together")
        }
        // A password in plain text on the network could be read by anyone on the path.
        if credentials != nil && security == .none && !Self.isLoopback(host) {
            throw DeliveryError("SMTP AUTH without TLS is only allowed to a loopback host; use security startTLS or tls")
        }
        let text = SMTPMessageFormat.compose(
            from: from, to: message.to, subject: subject, body: message.body, date: clock.now,
            messageID: SMTPMessageFormat.messageID(id: message.id, from: from))
        return SMTPEnvelope(
            heloName: heloName, from: from, to: message.to, credentials: credentials,
            payload: SMTPMessageFormat.dataPayload(text))
    }

    /// `localhost`, 127.0.0.0/8 or ::1: connections that never leave this machine.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil } && parts[0] == "127"
    }

    /// The sender's domain: RFC 5321 wants a name that identifies the client, and the domain
    /// the mail claims to come from is the one receiving servers check against anyway.
    private var heloName: String {
        from.lastIndex(of: "@").map { String(from[from.index(after: $0)...]) } ?? "localhost"
    }

    /// Describes the provider with the password masked, so printing it cannot leak the secret.
    public var description: String {
        let auth = username.map { " user=\($0) password=<redacted>" } ?? ""
        return "SMTPDelivery(\(host):\(port) security=\(security.rawValue) from=\(from)\(auth))"
    }

    /// Same as `description`; `debugPrint` and string interpolation of the value stay masked.
    public var debugDescription: String { description }

    /// Keeps `dump` and the debugger from walking the stored properties to the password.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
