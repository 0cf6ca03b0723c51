import Foundation

/// Limits and settings of the HTTP server. Every limit is enforced by the transport
/// before a handler sees the request.
public struct ServerConfiguration: Sendable {
    /// Address to bind: `127.0.0.1`, `0.0.0.0` or `::`.
    public var host: String = "0.0.0.0"
    /// 0 picks a free port; `Server.port` tells which.
    public var port: UInt16 = 8080
    /// Server threads reading sockets and running inline handlers.
    public var threads: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Largest request body accepted, in bytes (413 above it).
    public var maxBodySize: Int = 1 << 20
    /// Largest request line and headers, in bytes (431 above it; the connection's memory is
    /// twice this, so only a head past that meets MHD's own refusal).
    public var maxHeaderSize: Int = 32 * 1024
    /// Deepest nesting of objects and arrays a JSON body may have (400 above it).
    public var maxJSONDepth: Int = 32
    /// Simultaneous connections; more are refused at accept.
    public var maxConnections: Int = 4096
    /// Seconds a connection may sit idle, and the time a request's line and headers have to
    /// arrive in full once the connection is ready for it (slowloris).
    public var connectionTimeout: Int = 30
    /// Once `connectionTimeout` has passed since its head, a body must have arrived at this
    /// average rate at least, or the connection is cut.
    public var minBodyBytesPerSecond: Int = 1024
    /// A refused body (too large, or refused by its head) is read and dropped up to the
    /// larger of the body limit and this, so the client reads its answer instead of a reset.
    public var minDrainBytes: Int = 8 << 20
    /// Largest part of a multipart body, and how many parts it may have.
    public var maxPartSize: Int = 8 << 20
    public var maxParts: Int = 64
    /// Peers whose `X-Forwarded-For` is believed (addresses or CIDR ranges).
    public var trustedProxies: [String] = []
    /// Seconds graceful shutdown waits for in-flight requests.
    public var shutdownGrace: Double = 10

    public init() {}
}
