import Foundation
import GatehouseHTTP
import Testing
@testable import GatehouseServer
import GatehouseCore

/// How the proxy turns an upstream's head into its own answer, for heads no test upstream sends.
@Suite struct ManagedAPIProxyResponseTests {
    func answer(_ status: Int, _ headers: [String: String] = [:]) -> UpstreamSession.Answer {
        let response = OutboundResponse(statusCode: status, headerFields: headers.map { ($0.key, $0.value) })
        return UpstreamSession.Answer(response: response, body: EmptyBody(), cancel: {})
    }

    func respond(_ answer: UpstreamSession.Answer, method: HTTPMethod = .GET) throws -> Response {
        try ManagedAPIProxy.response(
            answer, request: Request(method: method, path: "/x"), scrubber: SecretScrubber(secrets: ["s3cr3t-value"]))
    }

    @Test func interimAndMadeUpStatusesAndHeaderFloodsAre502() {
        for status in [100, 101, 103, 600, 999] {
            #expect(throws: DatacoveError.self, "\(status)") { try respond(answer(status)) }
        }
        let flood = Dictionary(uniqueKeysWithValues: (0..<201).map { ("X-H\($0)", "v") })
        #expect(throws: DatacoveError.self) { try respond(answer(200, flood)) }
    }

    @Test func noBodyFollowsAHeadA204OrA304() throws {
        for (status, method) in [(200, HTTPMethod.HEAD), (204, .GET), (304, .GET)] {
            guard case .bytes(let data) = try respond(answer(status), method: method).body else {
                Issue.record("\(status) \(method) streams a body")
                continue
            }
            #expect(data.isEmpty)
        }
    }

    @Test func anAnswerThatCameWholeIsSentWholeAndScrubbed() throws {
        let whole = Data("{\"echo\":\"s3cr3t-value\",\"n\":1}".utf8)
        let answer = UpstreamSession.Answer(
            response: OutboundResponse(statusCode: 200, headerFields: [("Content-Type", "application/json")]), body: WholeBody(whole), cancel: {})
        guard case .bytes(let data) = try respond(answer).body else {
            Issue.record("a whole answer was streamed")
            return
        }
        #expect(String(decoding: data, as: UTF8.self) == "{\"echo\":\"[redacted]\",\"n\":1}")
    }

    @Test func headersAreScrubbedAndOriginWideOnesDropped() throws {
        let response = try respond(answer(302, [
            "Location": "https://api.example.com/next?key=s3cr3t-value", "Strict-Transport-Security": "max-age=1",
            "Access-Control-Allow-Origin": "*", "X-Gatehouse-Error": "TOKEN_INVALID", "X-Kept": "yes",
        ]))
        #expect(response.headers["Location"] == "https://api.example.com/next?key=[redacted]")
        #expect(response.headers["Strict-Transport-Security"] == nil && response.headers["Access-Control-Allow-Origin"] == nil)
        #expect(response.headers["X-Gatehouse-Error"] == nil && response.headers["X-Kept"] == "yes")
    }

    @Test func aSecretSplitAcrossChunksIsStillScrubbed() throws {
        let scrubber = try #require(SecretScrubber(secrets: ["s3cr3t-value", "short"]))
        var out = Data()
        for chunk in ["<a href=\"?k=s3c", "r3t-val", "ue\">s3cr3t-value", "</a> short"] { out += scrubber.scrub(Data(chunk.utf8)) }
        out += scrubber.finish()
        #expect(String(decoding: out, as: UTF8.self) == "<a href=\"?k=[redacted]\">[redacted]</a> short")
        #expect(SecretScrubber(secrets: ["short"]) == nil)
    }

    /// The scrubber's search finds what a naive left-to-right search finds (matches never
    /// overlapping), near-misses of a repetitive secret included, in time linear in the text.
    @Test func thePatternSearchFindsWhatANaiveSearchFinds() {
        func naive(_ needle: [UInt8], _ text: [UInt8]) -> [Int] {
            var found: [Int] = []
            var at = 0
            while at + needle.count <= text.count {
                if Array(text[at..<at + needle.count]) == needle {
                    found.append(at)
                    at += needle.count
                } else {
                    at += 1
                }
            }
            return found
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let needle = (0..<Int.random(in: 1...6, using: &random)).map { _ in UInt8.random(in: 97...98, using: &random) }
            let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 97...98, using: &random) }
            let found = text.withUnsafeBytes { BytePattern(needle).offsets(in: $0) }
            #expect(found == naive(needle, text), "\(needle) in \(text)")
        }
        // A secret of many `a` and one `b` against a megabyte of `a`: every position a near miss.
        let secret = String(repeating: "a", count: 4000) + "b"
        let scrubber = SecretScrubber(secrets: [secret])
        let text = Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + Data(secret.utf8)
        let out = (scrubber?.scrub(text) ?? Data()) + (scrubber?.finish() ?? Data())
        #expect(out == Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + SecretScrubber.replacement)
    }
}

private struct EmptyBody: UpstreamBody {
    func next() async throws -> Data? { nil }
    func takeCompleteBody() -> Data? { nil }
}

private struct WholeBody: UpstreamBody {
    let data: Data
    init(_ data: Data) { self.data = data }
    func next() async throws -> Data? { nil }
    func takeCompleteBody() -> Data? { data }
}
