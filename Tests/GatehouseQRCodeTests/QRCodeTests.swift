import Foundation
import GatehouseQRCode
import GatehouseTesting
import Testing

/// QR codes as the console draws them, read back by another program: the SVG drawn as PNG by
/// librsvg's `rsvg-convert`, then decoded by ZBar's `zbarimg`.
@Suite struct QRCodeTests {
    /// What a QR code reader finds in `svg`.
    static func read(_ svg: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (svgPath, pngPath) = (folder.appendingPathComponent("code.svg").path, folder.appendingPathComponent("code.png").path)
        try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
        let drawn = try Command.run("/usr/bin/env", ["rsvg-convert", "--width", "600", "--height", "600", "--output", pngPath, svgPath])
        guard drawn.status == 0 else { throw TestSetupError("rsvg-convert failed: \(String(decoding: drawn.output, as: UTF8.self))") }
        let decoded = try Command.run("/usr/bin/env", ["zbarimg", "--quiet", "--raw", "-Sbinary", pngPath])
        guard decoded.status == 0 else { throw TestSetupError("zbarimg found no code (status \(decoded.status))") }
        return String(decoding: decoded.output, as: UTF8.self)
    }

    @Test(arguments: [
        "otpauth://totp/Gatehouse%20Console:ops%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Gatehouse%20Console&algorithm=SHA1&digits=6&period=30",
        "short", String(repeating: "0123456789", count: 40),
    ])
    func aReaderDecodesWhatWasEncoded(_ text: String) throws {
        let code = try #require(QRCode(text))
        #expect(try Self.read(code.svg().markup) == text)
    }

    @Test func theDrawingIsGeometryOnly() throws {
        let code = try #require(QRCode("otpauth://totp/x?secret=AAAA"))
        // The finder pattern's dark 7×7 ring in the top-left corner.
        #expect((0..<7).allSatisfy { code.modules[0][$0] && code.modules[6][$0] && code.modules[$0][0] && code.modules[$0][6] })
        #expect(!code.modules[1][1] && code.modules[3][3])
        let svg = code.svg(title: "<script>alert(1)</script> & \"quotes\"").markup
        #expect(!svg.contains("<script") && svg.contains("&lt;script&gt;") && svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(QRCode(String(repeating: "x", count: 4000)) == nil)
    }
}
