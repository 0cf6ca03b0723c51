import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseExecutors
@testable import GatehouseOutbound
import GatehouseWiring
@testable import GatehouseWorkflowsEngine
import GatehouseFormats

/// The built-in executors on real files and real addresses: poppler counts a PDF's pages,
/// `unzip` reads a DOCX's text, and the URL check refuses private targets.
@Suite struct BuiltInExecutorTests {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("builtin-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs a small Python script that writes test files (no Python package beyond the standard library).
    static func python(_ script: String, _ arguments: [String]) throws {
        _ = try Command.run("/usr/bin/python3", ["-c", script] + arguments)
    }

    /// A PDF of `pages` blank pages, with a correct cross-reference table.
    static func pdf(pages: Int) throws -> URL {
        let url = folder.appendingPathComponent("doc-\(pages).pdf")
        try python("""
            import sys
            n = int(sys.argv[2]); objs = []
            kids = " ".join(f"{3 + i} 0 R" for i in range(n))
            objs.append("<< /Type /Catalog /Pages 2 0 R >>")
            objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>")
            for i in range(n): objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>")
            out = b"%PDF-1.4\\n"; offsets = []
            for i, o in enumerate(objs):
                offsets.append(len(out)); out += f"{i + 1} 0 obj\\n{o}\\nendobj\\n".encode()
            xref = len(out)
            out += f"xref\\n0 {len(objs) + 1}\\n0000000000 65535 f \\n".encode()
            for off in offsets: out += f"{off:010d} 00000 n \\n".encode()
            out += f"trailer\\n<< /Size {len(objs) + 1} /Root 1 0 R >>\\nstartxref\\n{xref}\\n%%EOF\\n".encode()
            open(sys.argv[1], "wb").write(out)
            """, [url.path, String(pages)])
        return url
    }

    static func docx(_ text: String) throws -> URL {
        let url = folder.appendingPathComponent("doc-\(UUID().uuidString).docx")
        try python("""
            import sys, zipfile
            words = "".join(f"<w:p><w:r><w:t>{line}</w:t></w:r></w:p>" for line in sys.argv[2].split("|"))
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", f'<w:document xmlns:w="x"><w:body>{words}</w:body></w:document>')
            """, [url.path, text])
        return url
    }

    static func invocation(_ files: [RunFile], input: [String: JSONValue] = [:], kind: String = "document-digest", config: [String: JSONValue] = [:]) -> RunInvocation {
        RunInvocation(
            runID: "evt_1", tenantID: "t", accountID: "a",
            workflow: WorkflowDefinition(id: "wf", name: "W", executor: .init(kind: kind, configuration: config)),
            input: input, files: files, attempt: 1, deadline: Date().addingTimeInterval(60), tenant: WorkflowTenantSettings(maxConcurrentRuns: 1))
    }

    static func file(_ url: URL, key: String = "document") throws -> RunFile {
        RunFile(
            key: key, filename: url.lastPathComponent, path: url.path, size: 0, sha256: "",
            contentTypes: try ContentSniffer.types(ofFileAt: url).sorted())
    }

    @Test func theDigestCountsPagesAndWords() async throws {
        let outcome = await DocumentDigestExecutor().execute(Self.invocation([
            try Self.file(try Self.pdf(pages: 3)), try Self.file(try Self.docx("Hello brave new|world of words")),
        ]))
        guard case .succeeded(let report) = outcome, let files = report.object?["files"]?.array else {
            Issue.record("\(outcome)")
            return
        }
        #expect(files[0].object?["pages"] == .number(3) && files[0].object?["type"] == .string(".pdf"))
        #expect(files[1].object?["words"] == .number(6) && files[1].object?["type"] == .string(".docx"))
    }

    @Test func aZipBombIsRefusedWithoutUnpackingIt() async throws {
        let bomb = Self.folder.appendingPathComponent("bomb.docx")
        try Self.python("""
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", "<w:t>" + "a " * (20 * 1024 * 1024) + "</w:t>")
            """, [bomb.path])
        // The message says it was refused from the ZIP directory: nothing was unpacked.
        let outcome = await DocumentDigestExecutor().execute(Self.invocation([try Self.file(bomb)]))
        guard case .failed(let code, let message) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(code == "DOCUMENT_UNREADABLE" && message.contains("unpacks to more than 32 MB"))
    }

    /// Killed, not waited for: a `sleep 30` that ran to its end would return normally.
    @Test func aToolPastItsTimeIsKilled() async throws {
        await #expect(throws: BoundedProcess.Failure.self) { try await BoundedProcess.run("sleep", ["30"], timeout: 0.3, maxOutput: 1024) }
        // And a cancelled run kills it too.
        let task = Task { try await BoundedProcess.run("sleep", ["30"], timeout: 60, maxOutput: 1024) }
        task.cancel()
        let finished: Bool
        do {
            _ = try await task.value
            finished = true
        } catch {
            finished = false
        }
        #expect(!finished)
    }

    /// A tool sees its three standard descriptors and nothing of the server's, even one a
    /// library left without close-on-exec.
    @Test func aToolInheritsOnlyItsOwnDescriptors() async throws {
        #expect(ChildDescriptors.addCloseFrom != nil, "glibc 2.34 or newer has posix_spawn_file_actions_addclosefrom_np")
        let seen = try await descriptorsSeenByAChild {
            String(decoding: try await BoundedProcess.run("ls", ["/proc/self/fd"], timeout: 30, maxOutput: 64 * 1024).stdout, as: UTF8.self)
        }
        #expect(seen == [0, 1, 2, 3])
    }

    @Test func wordsAreCountedInMarkupAndText() {
        #expect(DocumentDigestExecutor.words(Data("<w:p><w:t>one two</w:t></w:p><w:p><w:t>three</w:t></w:p>".utf8), markup: true) == 3)
        #expect(DocumentDigestExecutor.words(Data("a<w:br/>b<w:tab/>c".utf8), markup: true) == 3)
        #expect(DocumentDigestExecutor.words(Data("  héllo\twörld \n".utf8), markup: false) == 2)
    }

    @Test func aBrokenPDFFailsTheRunWithItsName() async throws {
        let broken = Self.folder.appendingPathComponent("broken.pdf")
        try Data("%PDF-1.4\nnot really\n".utf8).write(to: broken)
        let outcome = await DocumentDigestExecutor().execute(Self.invocation([try Self.file(broken)]))
        guard case .failed(let code, let message) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(code == "DOCUMENT_UNREADABLE" && message.hasPrefix("broken.pdf could not be read"))
    }

    @Test func aPromptIsFilledInOnePassAndCapped() throws {
        let executor = OpenAIWorkflowExecutor(http: UnimplementedOutboundHTTP())
        let run = Self.invocation([], input: ["a": .string("{{b}}"), "b": .string("B"), "n": .number(3)])
        #expect(executor.fill("x {{a}} {{n}} {{missing}} {{b", run) == "x {{b}} 3 {{missing}} {{b")
        let flood = Self.invocation([], input: ["a": .string(String(repeating: "y", count: 300_000))])
        #expect(executor.fill("{{a}}{{a}}", flood) == nil)
    }

    @Test func theURLCheckRefusesPrivateTargetsAndBadAddresses() async throws {
        let check = URLCheckExecutor(http: UnimplementedOutboundHTTP(), allowPrivateTargets: false)
        for (url, problem) in [
            ("http://127.0.0.1:8080/", "an address that is not public"), ("http://localhost/", "an address that is not public"),
            ("http://169.254.169.254/latest", "an address that is not public"), ("http://[::1]/", "an address that is not public"),
            ("http://10.1.2.3/", "an address that is not public"), ("gopher://example.com/", "the scheme must be http or https"),
            ("http://no-such-host.invalid/", "does not resolve"),
        ] {
            let outcome = await check.execute(Self.invocation([], input: ["url": .string(url)], kind: "url-check"))
            guard case .succeeded(let report) = outcome else {
                Issue.record("\(url): \(outcome)")
                continue
            }
            #expect(report.object?["valid"] == .bool(false), "\(url)")
            #expect(report.object?["problem"]?.string?.contains(problem) == true, "\(url): \(report)")
        }
        #expect(OutboundTarget.isPublic("93.184.216.34"))
        #expect(!OutboundTarget.isPublic("::ffff:10.0.0.1") && !OutboundTarget.isPublic("fd00::1") && !OutboundTarget.isPublic("100.64.0.1"))
        // IPv4 inside IPv6 translators and tunnels is judged as IPv4; hidden or reserved ranges are not public.
        for address in ["64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "2002:7f00:1::1", "2002:a00:1::", "fec0::1", "2001:0:4136:e378::1", "2001:db8::1", "100::1", "64:ff9b:1::1"] {
            #expect(!OutboundTarget.isPublic(address), "\(address)")
        }
        #expect(OutboundTarget.isPublic("64:ff9b::5db8:d822") && OutboundTarget.isPublic("2002:5db8:d822::1") && OutboundTarget.isPublic("2606:4700::1111"))
    }
}
