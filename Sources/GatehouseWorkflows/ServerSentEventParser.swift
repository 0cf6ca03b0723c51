import Foundation

/// One Server-Sent Event.
public struct ServerSentEvent: Sendable, Equatable {
    /// `event:`; `message` when the server named none.
    public var event: String
    /// The `data:` lines joined with newlines.
    public var data: String
    /// The last `id:` seen on the stream, which a reconnect sends back as `Last-Event-ID`.
    public var lastEventID: String
}

/// The WHATWG event-stream rules as a state machine fed bytes in whatever pieces the network
/// gives: lines end in CRLF, LF or CR; a blank line dispatches; `:` lines are comments; an
/// `id` holding NUL is ignored; an event cut off by the end of the stream is dropped.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var eventType = ""
    private var dataLines: [String] = []
    private var hasData = false
    private(set) var lastEventID = ""
    /// A `retry:` the server asked for, in milliseconds.
    private(set) var retry: Int?

    init(lastEventID: String = "") { self.lastEventID = lastEventID }

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                lastWasCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        var field = text
        var value = ""
        if let colon = text.firstIndex(of: ":") {
            field = String(text[..<colon])
            value = String(text[text.index(after: colon)...])
            if value.hasPrefix(" ") { value.removeFirst() }
        }
        switch field {
        case "event": eventType = value
        case "data":
            dataLines.append(value)
            hasData = true
        case "id": if !value.contains("\u{0}") { lastEventID = value }
        case "retry": if !value.isEmpty, value.allSatisfy(\.isASCII), let ms = Int(value) { retry = ms }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            dataLines = []
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(event: eventType.isEmpty ? "message" : eventType, data: dataLines.joined(separator: "\n"), lastEventID: lastEventID)
    }
}
