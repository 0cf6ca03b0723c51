import Foundation
import GatehouseTesting
import Testing
@testable import GatehouseWorkflowsEngine
import GatehouseFormats
import GatehouseRules

@Suite struct InputAndFileTests {
    typealias Input = WorkflowInput
    static let inputs: [Input] = [
        Input(key: "url", label: "Website address", type: "url", validation: .init(required: true)),
        Input(key: "title", label: "Title", type: "text", validation: .init(minLength: 3, maxLength: 10, pattern: "[A-Za-z ]+")),
        Input(key: "count", label: "Pages", type: "number", validation: .init(min: 1, max: 5)),
        Input(key: "mode", label: "Mode", type: "select", options: [.init(value: "fast", label: "Fast"), .init(value: "deep", label: "Deep")]),
        Input(key: "agree", label: "Terms", type: "checkbox", validation: .init(required: true)),
        Input(key: "mail", label: "Email", type: "email"),
        Input(key: "document", label: "Document", type: "file", fileOptions: .init(accept: ".pdf,.docx", maxSizeMb: 0.001)),
    ]
    static let valid: [String: JSONValue] = ["url": "https://example.com", "agree": .bool(true)]

    @Test(arguments: TestDatabaseKind.available)
    func everyRuleRefusesWithTheInputsOwnLabel(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        try await h.save(WorkflowsHarness.definition(credits: 1, inputs: Self.inputs))
        let cases: [([String: JSONValue], WorkflowError.Reason)] = [
            (["agree": .bool(true)], .input(.init("Website address", .required))),
            (["url": "ftp://x.example", "agree": .bool(true)], .input(.init("Website address", .notAWebAddress))),
            (Self.valid.merging(["title": "ab"]) { $1 }, .input(.init("Title", .shorterThan(3)))),
            (Self.valid.merging(["title": "abcdefghijk"]) { $1 }, .input(.init("Title", .longerThan(10)))),
            (Self.valid.merging(["title": "abc123"]) { $1 }, .input(.init("Title", .notInFormat))),
            (Self.valid.merging(["title": .number(5)]) { $1 }, .input(.init("Title", .notText))),
            (Self.valid.merging(["count": "many"]) { $1 }, .input(.init("Pages", .notANumber))),
            (Self.valid.merging(["count": .number(0)]) { $1 }, .input(.init("Pages", .below(1)))),
            (Self.valid.merging(["count": .number(9)]) { $1 }, .input(.init("Pages", .above(5)))),
            (Self.valid.merging(["mode": "slow"]) { $1 }, .input(.init("Mode", .notAnOption))),
            (["url": "https://example.com", "agree": .bool(false)], .input(.init("Terms", .unchecked))),
            (["url": "https://example.com"], .input(.init("Terms", .required))),
            (Self.valid.merging(["mail": "not-an-address"]) { $1 }, .input(.init("Email", .notAnEmailAddress))),
            (Self.valid.merging(["extra": "x"]) { $1 }, .notAnInput("extra")),
        ]
        for (input, reason) in cases {
            await #expect(throws: WorkflowError(.inputInvalid, reason)) { try await h.execute(input: input) }
        }
        await #expect(throws: WorkflowError(.fileInvalid, .input(.init("Document", .sendAsFile)))) {
            try await h.execute(input: Self.valid.merging(["document": "x"]) { $1 })
        }
        #expect(try await h.balance() == 100)
        _ = try await h.execute(input: Self.valid.merging(["title": "Fine", "count": "3", "mode": "deep", "mail": "a@b.example"]) { $1 })
        #expect(try await h.balance() == 99)
    }

    static let pdf = Array("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n".utf8)

    @Test(arguments: TestDatabaseKind.available)
    func filesAreCheckedByNameSizeAndContent(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        try await h.save(WorkflowsHarness.definition(credits: 1, inputs: Self.inputs))
        let limit = WorkflowError.Reason.input(.init("Document", .outsideFileOptions(try #require(Self.inputs.first { $0.key == "document" }?.fileOptions))))
        let cases: [(UploadedFile, WorkflowError.Reason)] = [
            (try h.upload("document", "report.exe", Self.pdf), limit),  // wrong type by name
            (try h.upload("document", "report.pdf", Array("MZ this is not a pdf".utf8)), limit),  // wrong type by content
            (try h.upload("document", "report.pdf", Self.pdf + [UInt8](repeating: 0x20, count: 2000)), limit),  // too big
            (try h.upload("other", "report.pdf", Self.pdf), .notAFileInput("other")),
        ]
        for (file, reason) in cases {
            await #expect(throws: WorkflowError(.fileInvalid, reason)) { try await h.execute(input: Self.valid, files: [file]) }
            #expect(!FileManager.default.fileExists(atPath: file.url.path), "a refused upload is removed")
        }
        let two = [try h.upload("document", "a.pdf", Self.pdf), try h.upload("document", "b.pdf", Self.pdf)]
        await #expect(throws: WorkflowError(.fileInvalid, .input(.init("Document", .moreThanOneFile)))) { try await h.execute(input: Self.valid, files: two) }
        #expect(try await h.balance() == 100)

        let good = try h.upload("document", "report.pdf", Self.pdf)
        let run = try await h.execute(input: Self.valid, files: [good]).run
        #expect(run.files.count == 1)
        let stored = run.files[0]
        #expect(stored.contentTypes == [".pdf"] && stored.size == Int64(Self.pdf.count) && stored.filename == "report.pdf")
        #expect(FileManager.default.fileExists(atPath: stored.path))
        #expect(!FileManager.default.fileExists(atPath: good.url.path))
        try await h.runner.drain()
        // Files go when their retention ends after the run finished.
        h.clock.advance(by: 7 * 86_400 - 10)
        try await h.engine.sweep()
        #expect(FileManager.default.fileExists(atPath: stored.path))
        h.clock.advance(by: 20)
        try await h.engine.sweep()
        #expect(!FileManager.default.fileExists(atPath: stored.path))
    }

    @Test func contentSniffingTellsOfficeFilesFromOtherZips() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func zip(_ names: [String]) throws -> URL {
            let target = folder.appendingPathComponent("z\(names.count)-\(UUID().uuidString).zip")
            _ = try Command.run(
                "/usr/bin/python3", ["-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    for n in sys.argv[2:]: z.writestr(n, '<x/>')", target.path] + names)
            return target
        }
        #expect(try ContentSniffer.types(ofFileAt: zip(["[Content_Types].xml", "word/document.xml"])) == [".docx"])
        #expect(try ContentSniffer.types(ofFileAt: zip(["[Content_Types].xml", "xl/workbook.xml"])) == [".xlsx"])
        #expect(try ContentSniffer.types(ofFileAt: zip(["readme.txt"])) == [".zip"])
        let text = folder.appendingPathComponent("notes.txt")
        try Data("plain words here, ünïcode too\n".utf8).write(to: text)
        #expect(try ContentSniffer.types(ofFileAt: text).contains(".txt"))
        let binary = folder.appendingPathComponent("bin")
        try Data([0x00, 0x01, 0x02, 0x7F]).write(to: binary)
        #expect(try ContentSniffer.types(ofFileAt: binary).isEmpty)
    }

    @Test func theLimitMessageReadsLikeTheSeed() {
        #expect(WorkflowInputRules.limitMessage("Document", .init(accept: ".pdf,.docx", maxSizeMb: 10)) == "Document must be a .pdf or .docx file of at most 10 MB")
        #expect(WorkflowInputRules.limitMessage("Photos", .init(accept: ".png, .jpg,.gif", maxSizeMb: 2.5, multiple: true))
            == "Photos must be .png, .jpg or .gif files of at most 2.5 MB each")
    }
}

@Suite struct PatternShapeTests {
    @Test func safePatternsPassAndNestedRepeatsAreFound() {
        for safe in ["[A-Za-z ]+", "(cat|dog)+", "\\d{3}-\\d{4}", "(ab){2,3}", "[(a+)+]*", "\\(a+\\)+", "(a+)?b", "^[a-z0-9._%+-]+@[a-z0-9.-]+$"] {
            #expect(!WorkflowInputRules.nestsQuantifiers(safe), "\(safe)")
        }
        for risky in ["(a+)+", "(a*)*", "(a+){2,}", "((a)+b)+", "(x(a+))*"] {
            #expect(WorkflowInputRules.nestsQuantifiers(risky), "\(risky)")
        }
    }
}
