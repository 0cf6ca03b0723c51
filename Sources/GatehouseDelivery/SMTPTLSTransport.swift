import Foundation
import GatehouseCore
import GatehouseCrypto

/// TLS over an already connected `TCPTransport`, for implicit TLS and STARTTLS: the
/// certificate checks and the cipher work are `TLSClientSession`'s (GatehouseCrypto, the one
/// module that speaks to OpenSSL), and this class moves their bytes over the socket itself, so
/// every wait keeps the TCP transport's poll-based deadlines and every send its
/// `MSG_NOSIGNAL` path.
final class TLSTransport: SMTPTransport {
    private let tcp: TCPTransport
    private var session: TLSClientSession?
    private var lines = SMTPLineBuffer()
    private var established = false

    private var peer: String { tcp.peer }

    private init(tcp: TCPTransport, session: TLSClientSession) {
        self.tcp = tcp
        self.session = session
    }

    deinit { close() }

    /// Runs the client handshake over `tcp` within its timeout and returns the encrypted stream.
    /// Throws `DeliveryError` when the handshake fails or the certificate does not verify.
    static func handshake(over tcp: TCPTransport, host: String, extraTrustedCertificatePEM: String?) throws -> TLSTransport {
        // Bytes that came in plain text after STARTTLS's 220 would otherwise be read as if they
        // came through TLS (the STARTTLS command injection of CVE-2011-0411).
        guard !tcp.hasBufferedInput else {
            throw DeliveryError("SMTP server \(tcp.peer) sent data before the TLS handshake")
        }
        let session: TLSClientSession
        do {
            session = try TLSClientSession(host: host, extraTrustedCertificatePEM: extraTrustedCertificatePEM)
        } catch let failure as TLSClientSession.Failure {
            throw DeliveryError("SMTP \(failure)")
        }
        let transport = TLSTransport(tcp: tcp, session: session)
        try transport.connect()
        return transport
    }

    private func connect() throws {
        let session = try open()
        // One deadline for the whole handshake, however many round trips it takes.
        let deadline = tcp.stepDeadline()
        while true {
            let progress: TLSClientSession.Progress
            do {
                progress = try session.handshake()
            } catch let failure as TLSClientSession.Failure {
                // Best effort: tell the server why (the alert OpenSSL queued), then give up.
                try? flush(deadline: deadline)
                throw DeliveryError("SMTP TLS handshake with \(peer) failed: \(failure)")
            }
            try flush(deadline: deadline)
            if progress == .established {
                established = true
                return
            }
            try feed(deadline: deadline, what: "TLS handshake with \(peer)")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        let session = try open()
        guard established else { throw closedError }
        let deadline = tcp.stepDeadline()
        do {
            try session.encrypt(bytes)
        } catch let failure as TLSClientSession.Failure {
            throw DeliveryError("SMTP \(failure) (to \(peer))")
        }
        try flush(deadline: deadline)
    }

    func readLine() throws -> String {
        let deadline = tcp.stepDeadline()
        while true {
            if let line = try lines.nextLine(peer: peer) { return line }
            try fill(deadline: deadline)
        }
    }

    /// Decrypts at least one more byte into `lines`.
    private func fill(deadline: UInt64) throws {
        let session = try open()
        guard established else { throw closedError }
        while true {
            let read: TLSClientSession.Read
            do {
                read = try session.read()
            } catch let failure as TLSClientSession.Failure {
                throw DeliveryError("SMTP \(failure) (from \(peer))")
            }
            // Reading can queue records of its own (TLS 1.3 key updates); send them along.
            try flush(deadline: deadline)
            switch read {
            case .bytes(let bytes):
                lines.bytes += bytes
                return
            case .needsInput:
                try feed(deadline: deadline, what: "reply from \(peer)")
            case .closed:
                throw DeliveryError("SMTP server \(peer) closed the TLS connection")
            }
        }
    }

    /// Moves the next bytes from the socket into the session.
    private func feed(deadline: UInt64, what: String) throws {
        let bytes = try tcp.receive(deadline: deadline, what: what)
        do {
            try open().receive(bytes)
        } catch let failure as TLSClientSession.Failure {
            throw DeliveryError("SMTP \(failure)")
        }
    }

    /// Sends everything the session has queued for the server.
    private func flush(deadline: UInt64) throws {
        guard let output = session?.takeOutput(), !output.isEmpty else { return }
        try tcp.write(output, deadline: deadline)
    }

    func close() {
        if let session, established {
            // close_notify, so the server can tell our end from a truncation; not awaited.
            session.shutdown()
            try? flush(deadline: tcp.stepDeadline(within: min(tcp.timeout, 1)))
        }
        session = nil
        tcp.close()
    }

    private func open() throws -> TLSClientSession {
        guard let session else { throw closedError }
        return session
    }

    private var closedError: DeliveryError { DeliveryError("SMTP connection to \(peer) is closed") }
}
