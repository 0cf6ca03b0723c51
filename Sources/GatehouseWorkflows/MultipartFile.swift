import Foundation
import GatehouseFormats
import GatehouseRules

/// The seed's multipart execute body (`id`, `input` as a JSON string, one part per file named
/// after its input key), written to a temporary file in pieces so that no file is ever read
/// whole into memory; the request then streams it from disk.
struct MultipartFile {
    let url: URL
    let boundary: String
    let size: Int64

    static func write(id: String, input: [String: JSONValue], files: [(key: String, url: URL)]) throws -> MultipartFile {
        let boundary = "Boundary-" + UUID().uuidString
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let out = FileHandle(forWritingAtPath: url.path) else {
            throw WorkflowsError.fileUnreadable("cannot create a temporary file for the upload")
        }
        defer { try? out.close() }
        func text(_ string: String) throws { try out.write(contentsOf: Data(string.utf8)) }
        func field(_ name: String, _ value: String) throws {
            try text("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        do {
            try field("id", id)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try field("input", String(decoding: try encoder.encode(input), as: UTF8.self))
            for (key, file) in files {
                guard let source = FileHandle(forReadingAtPath: file.path) else { throw WorkflowsError.fileUnreadable(file.lastPathComponent) }
                defer { try? source.close() }
                let name = file.lastPathComponent.filter { $0 != "\"" && $0 != "\r" && $0 != "\n" }
                try text("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"; filename=\"\(name)\"\r\n")
                try text("Content-Type: \(WorkflowInputRules.mediaType(of: name))\r\n\r\n")
                while let piece = try source.read(upToCount: 64 * 1024), !piece.isEmpty { try out.write(contentsOf: piece) }
                try text("\r\n")
            }
            try text("--\(boundary)--\r\n")
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return MultipartFile(url: url, boundary: boundary, size: Int64(try out.offset()))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
