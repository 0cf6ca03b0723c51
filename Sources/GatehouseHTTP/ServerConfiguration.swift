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
    /// Per-connection memory for the request line and headers (MHD answers 431 above it).
    public var maxHeaderSize: Int = 32 * 1024
    /// Simultaneous connections; more are refused at accept.
    public var maxConnections: Int = 4096
    /// Seconds a connection may sit idle or trickle bytes before it is closed (slowloris).
    public var connectionTimeout: Int = 30
    /// Largest part of a multipart body, and how many parts it may have.
    public var maxPartSize: Int = 8 << 20
    public var maxParts: Int = 64
    /// Peers whose `X-Forwarded-For` is believed (addresses or CIDR ranges).
    public var trustedProxies: [String] = []
    /// Seconds graceful shutdown waits for in-flight requests.
    public var shutdownGrace: Double = 10

    public init() {}
}
