import Foundation

/// What a file's bytes say it is, whatever its name claims: the extensions its content
/// matches. A name and a part's `Content-Type` are the client's word; this is the file's.
public enum ContentSniffer {
    /// The extensions (`.pdf`, `.docx`, `.txt`, …) the file at `url` matches; empty when
    /// none is recognised.
    public static func types(ofFileAt url: URL) throws -> Set<String> {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 8192) ?? Data()
        let bytes = [UInt8](head)
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts(Array("%PDF-".utf8)) { return [".pdf"] }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return [".png"] }
        if starts([0xFF, 0xD8, 0xFF]) { return [".jpg", ".jpeg"] }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return [".gif"] }
        if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return [".webp"] }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return try zipTypes(handle) }
        return textTypes(bytes)
    }

    /// Plain text: UTF-8 without NUL or other binary control bytes in its first 8 KiB.
    static func textTypes(_ bytes: [UInt8]) -> Set<String> {
        guard !bytes.isEmpty else { return [".txt", ".md", ".csv"] }
        // A multi-byte character cut at the 8 KiB mark is not a reason to call it binary.
        var sample = bytes
        while !sample.isEmpty, String(validating: sample, as: UTF8.self) == nil, bytes.count - sample.count < 4 { sample.removeLast() }
        guard String(validating: sample, as: UTF8.self) != nil,
            !sample.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        else { return [] }
        var types: Set<String> = [".txt", ".md", ".csv"]
        if let first = sample.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            types.insert(".json")
        }
        return types
    }

    /// An OPC package (DOCX, XLSX, PPTX) or another ZIP, told apart by the names in its
    /// central directory (ECMA-376 Part 2), which is read from the end of the file.
    static func zipTypes(_ handle: FileHandle) throws -> Set<String> {
        let names = try zipEntries(handle).map(\.name)
        if names.contains("[Content_Types].xml") {
            if names.contains("word/document.xml") { return [".docx"] }
            if names.contains(where: { $0.hasPrefix("xl/") }) { return [".xlsx"] }
            if names.contains(where: { $0.hasPrefix("ppt/") }) { return [".pptx"] }
        }
        return [".zip"]
    }

    /// One entry of a ZIP's central directory.
    public struct ZipEntry: Sendable, Equatable {
        public let name: String
        /// What the entry says it unpacks to (ZIP64 sizes read as the 32-bit maximum).
        public let uncompressedSize: Int64
    }

    /// The entries of a ZIP's central directory, at most 10,000 of them.
    public static func zipEntries(_ handle: FileHandle) throws -> [ZipEntry] {
        let size = try handle.seekToEnd()
        let tailLength = min(size, 65_557)
        try handle.seek(toOffset: size - tailLength)
        let tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
        guard tail.count >= 22,
            let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { u32(tail, $0) == 0x0605_4B50 })
        else { return [] }
        let (directorySize, directoryOffset) = (u32(tail, end + 12), u32(tail, end + 16))
        guard directorySize <= 4 << 20, UInt64(directoryOffset + directorySize) <= size else { return [] }
        try handle.seek(toOffset: UInt64(directoryOffset))
        let directory = [UInt8](try handle.read(upToCount: directorySize) ?? Data())
        var entries: [ZipEntry] = []
        var at = 0
        while at + 46 <= directory.count, u32(directory, at) == 0x0201_4B50, entries.count < 10_000 {
            let (nameLength, extra, comment) = (u16(directory, at + 28), u16(directory, at + 30), u16(directory, at + 32))
            guard at + 46 + nameLength <= directory.count else { break }
            entries.append(ZipEntry(
                name: String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                uncompressedSize: Int64(u32(directory, at + 24))))
            at += 46 + nameLength + extra + comment
        }
        return entries
    }
}
