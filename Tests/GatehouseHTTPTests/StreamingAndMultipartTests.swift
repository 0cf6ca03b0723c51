import Foundation
import Testing
@testable import GatehouseHTTP
import GatehouseTesting

@Suite struct StreamingAndMultipartTests {
    @Test func serverSentEventsArriveAsTheyAreWritten() async throws {
        let gate = Recorder()
        let test = try TestServer { router in
            router.get("/events", .inline { _, _ in
                .eventStream { writer in
                    for index in 1...3 {
                        try await writer.sendEvent("tick \(index)\nline two", event: "tick", id: "\(index)")
                        try await Task.sleep(nanoseconds: 50_000_000)
                    }
                    gate.add("done")
                }
            })
        }
        defer { test.stop() }
        let connection = try RawConnection(port: test.port)
        connection.send("GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: await connection.end(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.contains("Content-Type: text/event-stream"))
        for index in 1...3 {
            #expect(text.contains("id: \(index)\nevent: tick\ndata: tick \(index)\ndata: line two\n\n"))
        }
        #expect(gate.all == ["done"])
    }

    @Test func streamProducerStopsWhenClientLeaves() async throws {
        let stopped = Recorder()
        let test = try TestServer { router in
            router.get("/forever", .inline { _, _ in
                .eventStream { writer in
                    do {
                        while true {
                            try await writer.sendComment("keep-alive")
                            try await Task.sleep(nanoseconds: 20_000_000)
                        }
                    } catch {
                        stopped.add("stopped")
                        throw error
                    }
                }
            })
        }
        defer { test.stop() }
        do {
            let connection = try RawConnection(port: test.port)
            connection.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
            var buffer = [UInt8](repeating: 0, count: 256)
            let received = try await offPool { recv(connection.fd, &buffer, buffer.count, 0) }
            #expect(received > 0)
        }
        #expect(await stopped.atLeast(1) == ["stopped"])
    }

    static func multipartBody(boundary: String, parts: [(name: String, filename: String?, data: String)]) -> Data {
        var body = ""
        for part in parts {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { body += "; filename=\"\(filename)\"\r\nContent-Type: text/plain" }
            body += "\r\n\r\n\(part.data)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return Data(body.utf8)
    }

    static func uploadServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: configure) { router in
            router.post("/upload", .inline { request, _ in
                guard let form = request.multipart else { return .text("no form", status: 400) }
                let summary = form.parts.map { "\($0.name)|\($0.filename ?? "-")|\($0.contentType ?? "-")|\($0.data.count)" }
                return .text(summary.joined(separator: ";") + " title=\(form.field("title") ?? "")")
            })
        }
    }

    @Test func multipartPartsAreParsed() async throws {
        let test = try Self.uploadServer()
        defer { test.stop() }
        let file = String(repeating: "x", count: 50_000)
        let body = Self.multipartBody(boundary: "XyZ", parts: [("title", nil, "Hello world"), ("file", "a.txt", file)])
        let (status, _, reply) = try await test.send(
            "POST", "/upload", body: body, headers: ["Content-Type": "multipart/form-data; boundary=XyZ"])
        #expect(status == 200)
        #expect(String(decoding: reply, as: UTF8.self) == "title|-|-|11;file|a.txt|text/plain|50000 title=Hello world")
    }

    @Test func multipartPartOverTheLimitGets413() async throws {
        let test = try Self.uploadServer { $0.maxPartSize = 1000; $0.maxBodySize = 100_000 }
        defer { test.stop() }
        let body = Self.multipartBody(boundary: "BoundaryB", parts: [("file", "big.bin", String(repeating: "y", count: 5000))])
        let (status, _, reply) = try await test.send("POST", "/upload", body: body, headers: ["Content-Type": "multipart/form-data; boundary=BoundaryB"])
        #expect(status == 413, "\(String(decoding: reply, as: UTF8.self))")
    }

    @Test func tooManyPartsGets413() async throws {
        let test = try Self.uploadServer { $0.maxParts = 3 }
        defer { test.stop() }
        let body = Self.multipartBody(boundary: "BoundaryB", parts: (0..<5).map { ("f\($0)", nil, "v") })
        let (status, _, _) = try await test.send("POST", "/upload", body: body, headers: ["Content-Type": "multipart/form-data; boundary=BoundaryB"])
        #expect(status == 413)
    }

    @Test func multipartWithoutBoundaryGets400() async throws {
        let test = try Self.uploadServer()
        defer { test.stop() }
        let (status, _, reply) = try await test.send("POST", "/upload", body: Data("garbage".utf8), headers: ["Content-Type": "multipart/form-data"])
        #expect(status == 400)
        #expect(String(decoding: reply, as: UTF8.self).contains("invalid_multipart"))
    }
}
