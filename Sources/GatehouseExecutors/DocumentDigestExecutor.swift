import Foundation
import GatehouseWorkflowsEngine
import GatehouseFormats
import GatehouseRules

/// Built in: a digest of each file sent — its size, SHA-256, the type its content shows,
/// the page count of a PDF (poppler's `pdfinfo`) and the word count of a DOCX (its
/// `word/document.xml`, read with `unzip`) or of plain text.
package struct DocumentDigestExecutor: WorkflowExecutor {
    package let kind = "document-digest"

    package init() {}
    /// Most text read for a word count.
    package static let maxText = 32 << 20

    package func validate(configuration: [String: JSONValue]) throws(WorkflowError) {
        if let unknown = configuration.keys.first {
            throw WorkflowError(.definitionInvalid, .takesNoSettings(executor: "document-digest", setting: unknown))
        }
    }

    package func execute(_ run: RunInvocation) async -> ExecutorOutcome {
        guard !run.files.isEmpty else { return .failed(code: "NO_FILES", message: "document-digest needs at least one file.") }
        var reports: [JSONValue] = []
        for file in run.files {
            var report: [String: JSONValue] = [
                "input": .string(file.key), "filename": .string(file.filename), "size": .number(Double(file.size)),
                "sha256": .string(file.sha256), "type": .string(Self.type(of: file)),
            ]
            do {
                if file.contentTypes.contains(".pdf") {
                    report["pages"] = .number(Double(try await Self.pdfPages(file.path)))
                } else if file.contentTypes.contains(".docx") {
                    report["words"] = .number(Double(try await Self.docxWords(file.path)))
                } else if file.contentTypes.contains(".txt") {
                    report["words"] = .number(Double(try Self.textWords(file.path)))
                }
            } catch {
                return .failed(code: "DOCUMENT_UNREADABLE", message: "\(file.filename) could not be read: \(error)")
            }
            reports.append(.object(report))
        }
        return .succeeded(.object(["files": .array(reports)]))
    }

    /// The name's extension when the content agrees with it, else what the content showed first.
    package static func type(of file: RunFile) -> String {
        let ext = WorkflowInputRules.fileExtension(file.filename)
        return file.contentTypes.contains(ext) ? ext : file.contentTypes.first ?? "unknown"
    }

    package static func pdfPages(_ path: String) async throws -> Int {
        let output = try await BoundedProcess.run("pdfinfo", [path], timeout: 20, maxOutput: 1 << 20)
        let text = String(decoding: output.stdout, as: UTF8.self)
        guard output.status == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") }),
            let pages = Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces))
        else { throw BoundedProcess.Failure(description: "not a readable PDF") }
        return pages
    }

    package static func docxWords(_ path: String) async throws -> Int {
        // The ZIP directory says how large the text unpacks: a zip bomb is refused unopened.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        let size = try ContentSniffer.zipEntries(handle).first { $0.name == "word/document.xml" }?.uncompressedSize
        try? handle.close()
        guard let size else { throw BoundedProcess.Failure(description: "not a readable DOCX") }
        guard size <= Int64(maxText) else { throw BoundedProcess.Failure(description: "its text unpacks to more than \(maxText >> 20) MB") }
        let output = try await BoundedProcess.run("unzip", ["-p", path, "word/document.xml"], timeout: 20, maxOutput: maxText)
        guard output.status == 0, !output.truncated else { throw BoundedProcess.Failure(description: "not a readable DOCX") }
        return words(output.stdout, markup: true)
    }

    package static func textWords(_ path: String) throws -> Int {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return words(try handle.read(upToCount: maxText) ?? Data(), markup: false)
    }

    /// Words in bytes, counted in one pass: runs of anything but ASCII white space. In markup,
    /// tags are skipped and a paragraph's, tab's or break's tag separates words.
    package static func words(_ bytes: Data, markup: Bool) -> Int {
        var count = 0
        var inWord = false
        var inTag = false
        var tag: [UInt8] = []
        for byte in bytes {
            if markup, inTag {
                if byte == UInt8(ascii: ">") {
                    inTag = false
                    if tag == Array("/w:p".utf8) || tag.starts(with: Array("w:tab".utf8)) || tag.starts(with: Array("w:br".utf8)) { inWord = false }
                } else if tag.count < 8 {
                    tag.append(byte)
                }
                continue
            }
            if markup, byte == UInt8(ascii: "<") {
                inTag = true
                tag.removeAll(keepingCapacity: true)
                continue
            }
            let blank = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if !blank, !inWord { count += 1 }
            inWord = !blank
        }
        return count
    }
}
