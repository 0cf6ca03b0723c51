import Foundation
import GatehouseFormats

/// One JSON line per request: method, route template, status, duration and request id.
/// Never the path's values, the query, headers or bodies, which may carry secrets.
public struct AccessLog: Sendable {
    private let sink: any LogSink
    private let now: @Sendable () -> Date

    public init(sink: any LogSink, now: @escaping @Sendable () -> Date = { Date() }) {
        self.sink = sink
        self.now = now
    }

    func record(method: HTTPMethod, route: String, status: Int, seconds: Double, requestID: String, client: String) {
        let millis = (seconds * 1_000_000).rounded() / 1_000
        // ISO-8601 with milliseconds, like every other log line (`WireDate` does it without a formatter).
        let time = WireDate.string(now())
        // Built by hand: every field is ours and needs only the quote escaping below,
        // and this runs once per request on the hot path.
        sink.write(
            "{\"ts\":\"\(time)\",\"type\":\"access\",\"method\":\"\(method.rawValue.jsonEscaped)\",\"route\":\"\(route.jsonEscaped)\","
                + "\"status\":\(status),\"ms\":\(millis),\"requestId\":\"\(requestID.jsonEscaped)\",\"client\":\"\(client.jsonEscaped)\"}")
    }
}

extension String {
    /// Escapes a string for inclusion inside JSON quotes.
    var jsonEscaped: String {
        guard contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } ?? false }) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
