import Foundation
import GatehouseCore

/// One server reply: its three-digit code and the text of every line (RFC 5321 §4.2).
struct SMTPReply {
    let code: Int
    let lines: [String]

    /// The reply as the server wrote it, for error messages.
    var text: String { lines.map { "\(code) \($0)" }.joined(separator: " / ") }
}

/// What one delivery sends: the envelope, optional credentials and the finished message.
struct SMTPEnvelope: Sendable {
    let heloName: String
    let from: String
    let to: String
    let credentials: (username: String, password: String)?
    let payload: [UInt8]
}

/// The client side of RFC 5321 over any transport, one message per connection. Errors name
/// the step and the server's reply, never the command line itself, so neither the AUTH
/// secret nor the message body can end up in an error or a log.
final class SMTPConversation {
    /// Stops a server that sends continuation lines forever.
    static let maximumReplyLines = 100

    /// The stream in use; replaced by the TLS stream once `secure` has run.
    private var transport: any SMTPTransport
    private let security: SMTPDelivery.Security
    private let secure: ((any SMTPTransport) throws -> any SMTPTransport)?

    /// - Parameters:
    ///   - security: `.tls` runs `secure` before the greeting, `.startTLS` after STARTTLS.
    ///   - secure: turns the plain stream into a verified TLS stream (or throws).
    init(
        transport: any SMTPTransport, security: SMTPDelivery.Security = .none,
        secure: ((any SMTPTransport) throws -> any SMTPTransport)? = nil
    ) {
        self.transport = transport
        self.security = security
        self.secure = secure
    }

    /// Closes whichever stream is current (the TLS one closes the socket under it too).
    func close() { transport.close() }

    /// Greets, upgrades to TLS if asked, authenticates if asked, hands over the message and
    /// says goodbye.
    func deliver(_ envelope: SMTPEnvelope) throws {
        if security == .tls { transport = try upgrade() }
        try expect(readReply(), [220], step: "greeting")
        var extensions = try hello(envelope.heloName)
        if security == .startTLS {
            // Never fall back to plain text: a missing STARTTLS may be an attacker stripping it.
            guard extensions["STARTTLS"] != nil else {
                throw DeliveryError("SMTP server does not offer STARTTLS, and security startTLS forbids sending in plain text")
            }
            try command("STARTTLS", expecting: [220], step: "STARTTLS")
            transport = try upgrade()
            // RFC 3207 §4.2: what the server said before TLS is discarded and asked again.
            extensions = try hello(envelope.heloName)
        }
        if let credentials = envelope.credentials {
            try authenticate(credentials.username, credentials.password, extensions: extensions)
        }
        try command("MAIL FROM:<\(envelope.from)>", expecting: [250], step: "MAIL FROM")
        try command("RCPT TO:<\(envelope.to)>", expecting: [250, 251], step: "RCPT TO")
        try command("DATA", expecting: [354], step: "DATA")
        try transport.write(envelope.payload)
        try expect(readReply(), [250], step: "message")
        // The server has taken the message. A failed QUIT must not turn that into an error,
        // or a caller that retries would send the same code twice.
        _ = try? command("QUIT", expecting: [221], step: "QUIT")
    }

    /// EHLO, falling back to HELO for a server that rejects it (RFC 5321 §3.2). Returns the
    /// advertised extensions keyed by upper-cased keyword, e.g. `AUTH` → `["PLAIN", "LOGIN"]`.
    func hello(_ name: String) throws -> [String: [String]] {
        let reply = try command("EHLO \(name)", expecting: nil, step: "EHLO")
        if reply.code == 250 {
            var extensions: [String: [String]] = [:]
            // The first line is the server's greeting text, not an extension.
            for line in reply.lines.dropFirst() {
                let words = line.split(separator: " ").map(String.init)
                guard let keyword = words.first else { continue }
                extensions[keyword.uppercased()] = words.dropFirst().map { $0.uppercased() }
            }
            return extensions
        }
        guard (500...504).contains(reply.code) || reply.code == 550 else {
            throw DeliveryError("SMTP EHLO refused: \(reply.text)")
        }
        try command("HELO \(name)", expecting: [250], step: "HELO")
        return [:]
    }

    /// AUTH PLAIN when offered (one round trip), else AUTH LOGIN (RFC 4954, 4616).
    private func authenticate(_ username: String, _ password: String, extensions: [String: [String]]) throws {
        let mechanisms = extensions["AUTH"] ?? []
        if mechanisms.contains("PLAIN") {
            let token = base64(Array("\u{0}\(username)\u{0}\(password)".utf8))
            try command("AUTH PLAIN \(token)", expecting: [235], step: "AUTH PLAIN")
        } else if mechanisms.contains("LOGIN") {
            try command("AUTH LOGIN", expecting: [334], step: "AUTH LOGIN")
            try command(base64(Array(username.utf8)), expecting: [334], step: "AUTH LOGIN username")
            try command(base64(Array(password.utf8)), expecting: [235], step: "AUTH LOGIN password")
        } else {
            let offered = mechanisms.isEmpty ? "none" : mechanisms.joined(separator: " ")
            throw DeliveryError("SMTP server offers no supported AUTH mechanism (offers: \(offered))")
        }
    }

    /// Sends one command line and reads its reply; with `expecting`, checks the code too.
    @discardableResult
    func command(_ line: String, expecting codes: Set<Int>?, step: String) throws -> SMTPReply {
        try transport.write(Array("\(line)\r\n".utf8))
        let reply = try readReply()
        if let codes { try expect(reply, codes, step: step) }
        return reply
    }

    /// The one place reply codes are checked, so every refusal reads the same.
    func expect(_ reply: SMTPReply, _ codes: Set<Int>, step: String) throws {
        guard codes.contains(reply.code) else {
            throw DeliveryError("SMTP \(step) refused: \(reply.text)")
        }
    }

    /// Reads one reply, following `250-` continuation lines to the final `250 ` line.
    func readReply() throws -> SMTPReply {
        var code: Int?
        var lines: [String] = []
        while true {
            let line = try transport.readLine()
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let value = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(value)
            else {
                throw DeliveryError("SMTP server sent a malformed reply line")
            }
            if let code, code != value {
                throw DeliveryError("SMTP server changed the reply code inside one reply (\(code), then \(value))")
            }
            code = value
            let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
            guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
                throw DeliveryError("SMTP server sent a malformed reply line")
            }
            lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
            if separator == UInt8(ascii: " ") { return SMTPReply(code: value, lines: lines) }
            guard lines.count < Self.maximumReplyLines else {
                throw DeliveryError("SMTP server sent more than \(Self.maximumReplyLines) reply lines")
            }
        }
    }

    private func upgrade() throws -> any SMTPTransport {
        guard let secure else { throw DeliveryError("SMTP security \(security.rawValue) has no TLS provider") }
        return try secure(transport)
    }

    private func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
