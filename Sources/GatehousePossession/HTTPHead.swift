import Foundation

/// The bytes of one HTTP/1.1 hop as `CellularCarrierCheck` speaks it over a raw connection: the GET it sends
/// and the status line and `Location` it reads back (the body is never needed). Platform-independent, so it
/// is tested where the Network framework is not.
struct HTTPHead: Sendable, Equatable {
    /// Reading stops here: an operator's redirect head is far smaller.
    static let maxBytes = 64 * 1024

    var status: Int
    var location: String?

    /// `GET <path?query> HTTP/1.1` for `url`, with `Host`, `Connection: close` and `headers`; `nil` without a host.
    static func request(for url: URL, headers: [String: String] = [:]) -> Data? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let host = components.host, !host.isEmpty else {
            return nil
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let scheme = components.scheme?.lowercased()
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = components.port, port != (scheme == "https" ? 443 : 80) { authority += ":\(port)" }
        var lines = ["GET \(target) HTTP/1.1", "Host: \(authority)", "Accept: */*", "Connection: close"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where !name.contains("\r") && !value.contains("\r") && !value.contains("\n") {
            lines.append("\(name): \(value)")
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The head at the start of `data`, once its blank line has arrived; `nil` while it is incomplete.
    init?(parsing data: Data) {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            self.init(status: 0, location: nil)
            return
        }
        let location = lines.dropFirst().lazy.compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "location" else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }.first
        self.init(status: status, location: location)
    }

    init(status: Int, location: String?) {
        self.status = status
        self.location = location
    }
}
