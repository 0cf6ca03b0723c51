import Foundation

/// Writes a streamed response body while the connection sends it.
public final class BodyWriter: Sendable {
    let channel: StreamChannel

    init(channel: StreamChannel) { self.channel = channel }

    /// Queues bytes for the client; waits while too much is queued, and throws
    /// `CancellationError` once the client has gone.
    public func write(_ data: Data) async throws {
        try await channel.push(data)
    }

    /// Writes one Server-Sent Event (`event:`, `id:`, `data:` lines, blank line).
    public func sendEvent(_ data: String, event: String? = nil, id: String? = nil) async throws {
        var text = ""
        if let id { text += "id: \(Self.singleLine(id))\n" }
        if let event { text += "event: \(Self.singleLine(event))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        text += "\n"
        try await write(Data(text.utf8))
    }

    /// Writes an SSE comment, which clients ignore; keeps idle proxies from closing the stream.
    public func sendComment(_ comment: String) async throws {
        try await write(Data(": \(Self.singleLine(comment))\n\n".utf8))
    }

    /// True once the client has disconnected.
    public var isCancelled: Bool { channel.isCancelled }

    private static func singleLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}

extension Response {
    /// A `text/event-stream` response fed by `produce` until it returns.
    public static func eventStream(
        headers extra: HTTPHeaders = [:], _ produce: @escaping @Sendable (BodyWriter) async throws -> Void
    ) -> Response {
        var headers: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"]
        for (name, value) in extra { headers.set(name, value) }
        return Response(status: 200, headers: headers, body: .stream(produce))
    }
}
