import GatehouseCore

/// The HTTP transport hands its error lines over as finished strings, such as
/// `unhandled error in /admin/v1/x request 1e27010e-1931: …`. It names the request as
/// `request <id>`, with an id it generated itself (hex, a dash, hex): that id is kept, so a
/// 500 a user reports can be found in the log, and everything else is masked as usual.
///
/// This is the one place that reads the transport's wording; a transport that passed the
/// request id beside the message would let it be marked `LogValue.plain` directly.
enum TransportLogLine {
    static func value(_ line: String) -> LogValue {
        var result: LogValue = ""
        var rest = Substring(line)
        while let marker = rest.range(of: "request ") {
            let idStart = marker.upperBound
            let idEnd = rest[idStart...].firstIndex { !isIDCharacter($0) } ?? rest.endIndex
            let id = rest[idStart..<idEnd]
            // The cut is at a space and at a character that is no digit, so no digit run of
            // the masked text is split in two.
            if isRequestID(id) {
                result = result + LogValue(String(rest[..<idStart])) + .plain(String(id))
            } else {
                result = result + LogValue(String(rest[..<idEnd]))
            }
            rest = rest[idEnd...]
        }
        return result + LogValue(String(rest))
    }

    private static func isIDCharacter(_ c: Character) -> Bool { c == "-" || c.isHexDigit && (c.isNumber || c.isLowercase) }

    /// `<hex>-<hex>` exactly, as `Server` makes them.
    static func isRequestID(_ token: Substring) -> Bool {
        let halves = token.split(separator: "-", omittingEmptySubsequences: false)
        return halves.count == 2 && halves.allSatisfy { !$0.isEmpty && $0.count <= 16 }
    }
}
