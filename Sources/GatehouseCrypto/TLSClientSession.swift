import COpenSSL
import Foundation

/// The client side of a TLS connection (OpenSSL) over memory buffers: OpenSSL encrypts and
/// decrypts, and the caller moves the bytes over its own socket, with its own deadlines and
/// its own `MSG_NOSIGNAL` sends (OpenSSL's socket BIO uses `write`, which raises SIGPIPE when
/// the peer hangs up).
///
/// The certificate is always verified: against the system's trusted roots plus, when given,
/// `extraTrustedCertificatePEM` (added to the roots, never replacing them), and against the
/// host name (DNS names and IP addresses both). There is deliberately no way to turn that off.
///
/// ```swift
/// let tls = try TLSClientSession(host: "mail.example.com")
/// while try tls.handshake() == .needsInput {
///     try socket.send(tls.takeOutput())
///     try tls.receive(socket.read())
/// }
/// try socket.send(tls.takeOutput())
/// ```
///
/// Not Sendable: one connection's bytes go through one owner at a time.
public final class TLSClientSession {
    /// Why TLS could not be set up, or the connection failed; never quotes secrets.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Where the handshake stands after a step.
    public enum Progress: Equatable {
        case established
        /// The peer's next bytes are needed (send ``takeOutput()`` first).
        case needsInput
    }

    /// What a read found.
    public enum Read: Equatable {
        case bytes([UInt8])
        /// Nothing decrypted yet: the peer's next bytes are needed.
        case needsInput
        /// The peer ended the TLS session (close_notify).
        case closed
    }

    private var ssl: OpaquePointer?
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer

    /// Prepares a session for `host` (a DNS name, an IPv4 address or a bracketed IPv6 one),
    /// TLS 1.2 at least.
    public init(host: String, extraTrustedCertificatePEM: String? = nil) throws {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("TLS setup failed") }
        // SSL_new takes its own reference to the context, so this one can go when we return.
        defer { SSL_CTX_free(context) }
        guard copenssl_ssl_ctx_require_tls12(context) == 1, SSL_CTX_set_default_verify_paths(context) == 1 else {
            throw Self.failure("TLS setup failed")
        }
        if let pem = extraTrustedCertificatePEM { try Self.trust(pem, in: context) }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else { throw Self.failure("TLS setup failed") }
        guard let readBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw Self.failure("TLS setup failed")
        }
        guard let writeBIO = BIO_new(BIO_s_mem()) else {
            BIO_free(readBIO)
            SSL_free(ssl)
            throw Self.failure("TLS setup failed")
        }
        // From here the SSL owns both BIOs and frees them with itself.
        SSL_set_bio(ssl, readBIO, writeBIO)
        (self.ssl, self.readBIO, self.writeBIO) = (ssl, readBIO, writeBIO)
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        // SSL_set1_host checks a DNS name or, for an address literal, the IP SANs. SNI carries
        // DNS names only (RFC 6066 §3), so an address is not sent there.
        guard SSL_set1_host(ssl, name) == 1 else { throw Self.failure("TLS host name \(name) is not usable") }
        if !Self.isAddressLiteral(name) {
            guard copenssl_ssl_set_sni_host_name(ssl, name) == 1 else { throw Self.failure("TLS host name \(name) is not usable") }
        }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        ERR_clear_error()
    }

    /// Takes the handshake one step; send ``takeOutput()`` after every step, failed ones too
    /// (they may carry an alert that tells the peer why).
    public func handshake() throws -> Progress {
        let ssl = try open()
        ERR_clear_error()
        let result = SSL_connect(ssl)
        if result == 1 { return .established }
        guard SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ else { throw Failure(description: Self.handshakeReason(ssl)) }
        return .needsInput
    }

    /// The bytes OpenSSL has queued for the peer, taken out of its buffer.
    public func takeOutput() -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while BIO_ctrl_pending(writeBIO) > 0 {
            let count = BIO_read(writeBIO, &chunk, Int32(chunk.count))
            guard count > 0 else { break }
            output += chunk[..<Int(count)]
        }
        return output
    }

    /// Hands OpenSSL bytes that came from the peer.
    public func receive(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { throw Failure(description: "TLS buffer write failed") }
    }

    /// Encrypts `bytes` for the peer (then send ``takeOutput()``). A memory buffer never
    /// blocks, so everything is encrypted at once or the call fails.
    public func encrypt(_ bytes: [UInt8]) throws {
        let ssl = try open()
        guard !bytes.isEmpty else { return }
        ERR_clear_error()
        let written = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { throw Failure(description: "TLS write failed: \(Self.errorText() ?? "unknown error")") }
    }

    /// Decrypts what has arrived. Reading can queue records of its own (TLS 1.3 key updates):
    /// send ``takeOutput()`` after it.
    public func read() throws -> Read {
        let ssl = try open()
        var chunk = [UInt8](repeating: 0, count: 16384)
        ERR_clear_error()
        let count = SSL_read(ssl, &chunk, Int32(chunk.count))
        if count > 0 { return .bytes(Array(chunk[..<Int(count)])) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ: return .needsInput
        case SSL_ERROR_ZERO_RETURN: return .closed
        default: throw Failure(description: "TLS read failed: \(Self.errorText() ?? "unknown error")")
        }
    }

    /// Queues close_notify, so the peer can tell the end from a truncation; the session is
    /// unusable afterwards.
    public func shutdown() {
        guard let ssl else { return }
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func open() throws -> OpaquePointer {
        guard let ssl else { throw Failure(description: "TLS session is closed") }
        return ssl
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
        guard added > 0 else { throw Failure(description: "extraTrustedCertificatePEM holds no PEM certificate") }
    }

    private static func isAddressLiteral(_ name: String) -> Bool {
        if name.contains(":") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Why the handshake failed: the certificate check's own words when it was that.
    private static func handshakeReason(_ ssl: OpaquePointer) -> String {
        let verify = SSL_get_verify_result(ssl)
        if verify != Int(X509_V_OK) {
            return "certificate verify failed (\(String(cString: X509_verify_cert_error_string(verify))))"
        }
        return errorText() ?? "connection closed or protocol error"
    }

    /// The most recent OpenSSL error on this thread's queue, if any; the queue is emptied.
    private static func errorText() -> String? {
        var last: UInt = 0
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            last = code
        }
        guard last != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(last, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(errorText() ?? "OpenSSL error")")
    }
}
