import COpenSSL
import Foundation

/// TLS (OpenSSL) over an already connected `TCPTransport`, for implicit TLS and STARTTLS.
///
/// The certificate is always verified: against the system's trusted roots plus, when given,
/// `extraTrustedCertificatePEM` (added to the roots, never replacing them), and against the
/// host name (DNS names and IP addresses both). There is deliberately no way to turn that off.
///
/// OpenSSL reads and writes memory BIOs, and this class moves their bytes over the socket
/// itself. That keeps every wait on the TCP transport's poll-based deadlines, and every send
/// on its `MSG_NOSIGNAL` path: OpenSSL's own socket BIO uses `write`, which raises SIGPIPE
/// (killing the server) when the mail server hangs up.
final class TLSTransport: SMTPTransport {
    private let tcp: TCPTransport
    private var ssl: OpaquePointer?
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private var lines = SMTPLineBuffer()
    private var established = false

    private var peer: String { tcp.peer }

    private init(tcp: TCPTransport, ssl: OpaquePointer, readBIO: OpaquePointer, writeBIO: OpaquePointer) {
        self.tcp = tcp
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
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
        let transport = try make(tcp: tcp, host: host, extraTrustedCertificatePEM: extraTrustedCertificatePEM)
        try transport.connect()
        return transport
    }

    private static func make(tcp: TCPTransport, host: String, extraTrustedCertificatePEM: String?) throws -> TLSTransport {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw failure("TLS setup failed") }
        // SSL_new takes its own reference to the context, so this one can go when we return.
        defer { SSL_CTX_free(context) }
        guard copenssl_ssl_ctx_require_tls12(context) == 1, SSL_CTX_set_default_verify_paths(context) == 1 else {
            throw failure("TLS setup failed")
        }
        if let pem = extraTrustedCertificatePEM { try trust(pem, in: context) }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else { throw failure("TLS setup failed") }
        guard let readBIO = BIO_new(BIO_s_mem()), let writeBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw failure("TLS setup failed")
        }
        // From here the SSL owns both BIOs and frees them with itself.
        SSL_set_bio(ssl, readBIO, writeBIO)
        let transport = TLSTransport(tcp: tcp, ssl: ssl, readBIO: readBIO, writeBIO: writeBIO)
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        // SSL_set1_host checks a DNS name or, for an address literal, the IP SANs. SNI carries
        // DNS names only (RFC 6066 §3), so an address is not sent there.
        guard SSL_set1_host(ssl, name) == 1 else { throw failure("TLS host name \(name) is not usable") }
        if !isAddressLiteral(name) {
            guard copenssl_ssl_set_sni_host_name(ssl, name) == 1 else { throw failure("TLS host name \(name) is not usable") }
        }
        return transport
    }

    /// Adds every certificate in `pem` to the context's store, next to the default roots.
    private static func trust(_ pem: String, in context: OpaquePointer) throws {
        guard let store = SSL_CTX_get_cert_store(context) else { throw failure("TLS setup failed") }
        let bytes = Array(pem.utf8)
        let added = try bytes.withUnsafeBytes { raw -> Int in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { throw failure("TLS setup failed") }
            defer { BIO_free(bio) }
            var count = 0
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(certificate) }
                guard X509_STORE_add_cert(store, certificate) == 1 else { throw failure("extra trusted certificate rejected") }
                count += 1
            }
            return count
        }
        // The loop ends on a "no start line" error at the end of the text; that is not a failure.
        ERR_clear_error()
        guard added > 0 else { throw DeliveryError("extraTrustedCertificatePEM holds no PEM certificate") }
    }

    private static func isAddressLiteral(_ name: String) -> Bool {
        if name.contains(":") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    private func connect() throws {
        guard let ssl else { throw closedError }
        // One deadline for the whole handshake, however many round trips it takes.
        let deadline = tcp.stepDeadline()
        while true {
            ERR_clear_error()
            let result = SSL_connect(ssl)
            if result == 1 {
                try flush(deadline: deadline)
                established = true
                return
            }
            let code = SSL_get_error(ssl, result)
            guard code == SSL_ERROR_WANT_READ else {
                let reason = Self.handshakeReason(ssl)
                // Best effort: tell the server why (the alert OpenSSL queued), then give up.
                try? flush(deadline: deadline)
                throw DeliveryError("SMTP TLS handshake with \(peer) failed: \(reason)")
            }
            try flush(deadline: deadline)
            try feed(deadline: deadline, what: "TLS handshake with \(peer)")
        }
    }

    /// Why the handshake failed: the certificate check's own words when it was that.
    private static func handshakeReason(_ ssl: OpaquePointer) -> String {
        let verify = SSL_get_verify_result(ssl)
        if verify != Int(X509_V_OK) {
            return "certificate verify failed (\(String(cString: X509_verify_cert_error_string(verify))))"
        }
        return openSSLErrorText() ?? "connection closed or protocol error"
    }

    func write(_ bytes: [UInt8]) throws {
        guard let ssl, established else { throw closedError }
        guard !bytes.isEmpty else { return }
        let deadline = tcp.stepDeadline()
        ERR_clear_error()
        // A memory BIO never blocks, so SSL_write encrypts everything at once or fails.
        let written = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else {
            throw DeliveryError("SMTP TLS write to \(peer) failed: \(Self.openSSLErrorText() ?? "unknown error")")
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
        guard let ssl, established else { throw closedError }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, &chunk, Int32(chunk.count))
            if count > 0 {
                lines.bytes += chunk[..<Int(count)]
                return
            }
            let code = SSL_get_error(ssl, count)
            // Reading can queue records of its own (TLS 1.3 key updates); send them along.
            try flush(deadline: deadline)
            switch code {
            case SSL_ERROR_WANT_READ:
                try feed(deadline: deadline, what: "reply from \(peer)")
            case SSL_ERROR_ZERO_RETURN:
                throw DeliveryError("SMTP server \(peer) closed the TLS connection")
            default:
                throw DeliveryError("SMTP TLS read from \(peer) failed: \(Self.openSSLErrorText() ?? "unknown error")")
            }
        }
    }

    /// Moves the next bytes from the socket into OpenSSL's input.
    private func feed(deadline: UInt64, what: String) throws {
        let bytes = try tcp.receive(deadline: deadline, what: what)
        let written = bytes.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { throw DeliveryError("SMTP TLS buffer write failed") }
    }

    /// Sends everything OpenSSL has queued for the server.
    private func flush(deadline: UInt64) throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while BIO_ctrl_pending(writeBIO) > 0 {
            let count = BIO_read(writeBIO, &chunk, Int32(chunk.count))
            guard count > 0 else { return }
            try tcp.write(Array(chunk[..<Int(count)]), deadline: deadline)
        }
    }

    func close() {
        if let ssl {
            if established {
                // close_notify, so the server can tell our end from a truncation; not awaited.
                _ = SSL_shutdown(ssl)
                try? flush(deadline: tcp.stepDeadline(within: min(tcp.timeout, 1)))
            }
            SSL_free(ssl)
            self.ssl = nil
        }
        ERR_clear_error()
        tcp.close()
    }

    private var closedError: DeliveryError { DeliveryError("SMTP connection to \(peer) is closed") }

    /// The most recent OpenSSL error on this thread's queue, if any.
    private static func openSSLErrorText() -> String? {
        var last: UInt = 0
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            last = code
        }
        guard last != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(last, &buffer, buffer.count)
        return String(cString: buffer)
    }

    private static func failure(_ what: String) -> DeliveryError {
        DeliveryError("SMTP \(what): \(openSSLErrorText() ?? "OpenSSL error")")
    }
}
