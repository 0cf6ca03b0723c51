import CQREncode
import Foundation
import GatehouseHTML

/// A QR code (ISO/IEC 18004) encoded by libqrencode and drawn as SVG on the server: the
/// console shows an operator's TOTP URI this way, with no script and nothing fetched.
public struct QRCode: Sendable, Equatable {
    /// The modules, row by row: true is dark.
    public let modules: [[Bool]]

    /// `text` as a QR code with error correction level M (15%), the smallest version that
    /// holds it; nil when it does not fit (over about 2 KB).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        // Bit 0 of each byte is the module's colour (libqrencode's documented layout).
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    /// The code as an SVG image: one path of unit squares, a quiet zone of four modules, black
    /// on white, `size` pixels square, nothing but geometry (no text, no script).
    public func svg(size: Int = 256, title: String = "QR code") -> HTML {
        let quiet = 4
        let extent = modules.count + 2 * quiet
        var path = ""
        for (row, cells) in modules.enumerated() {
            for (column, dark) in cells.enumerated() where dark { path += "M\(column + quiet) \(row + quiet)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(extent) \(extent)" width="\(size)" height="\(size)" \
            shape-rendering="crispEdges" role="img"><title>\(title)</title>\
            <rect width="\(extent)" height="\(extent)" fill="#fff"/><path d="\(HTML(trusted: path))" fill="#000"/></svg>
            """
    }
}
