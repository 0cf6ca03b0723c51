import CMicroHTTPD
import Foundation

/// A 413 sent while the body still arrives. libmicrohttpd 0.9.75 queues a response only
/// before the body or after its end, so a client that sends past the limit and then waits for
/// an answer would get none until the drain cap. The transport writes this one answer to the
/// socket itself, a small fixed response and the only one it ever writes, then keeps reading
/// and dropping for a bounded time (a lingering close, so the client reads it instead of a
/// reset) and ends the connection without MHD answering again.
extension Server {
    /// How long a refused body is still read after its early answer.
    static let lingerNanoseconds: UInt64 = 2_000_000_000

    /// Writes the 413; false when the socket would not take it whole (the connection is cut).
    func answerEarly(_ exchange: Exchange) -> Bool {
        var response = responder.renderError(.payloadTooLarge, path: exchange.request.rawPath, context: exchange.routed.context)
        response.headers.set("Connection", "close")
        guard case .bytes(let body) = response.body else { return false }
        let bytes = Self.serialized(status: response.status, headers: response.headers, body: body)
        let fd = cmhd_connection_fd(exchange.connection)
        let sent = bytes.withUnsafeBytes { cmhd_send_now(fd, $0.baseAddress, $0.count) }
        exchange.state.answeredEarly(now: DispatchTime.now().uptimeNanoseconds)
        // Cut then by the deadline watch, which knows when the descriptor is still this connection's.
        if case .lingering(let until) = exchange.state.phase, let watched = exchange.watched { clientDeadlines.closing(watched, due: until) }
        record(exchange, status: response.status)
        return sent == bytes.count
    }

    /// Status line, the response's fields (with its length and date), the body. Names and
    /// values are the renderer's own: no CR or LF can be in them.
    static func serialized(status: Int, headers: HTTPHeaders, body: Data) -> Data {
        var head = "HTTP/1.1 \(status) \(status == 413 ? "Payload Too Large" : "Error")\r\n"
        head += "Date: \(httpDate())\r\n"
        for (name, value) in headers where name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    static func httpDate() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date())
    }
}
