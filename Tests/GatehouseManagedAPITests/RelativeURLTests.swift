import Foundation
import Testing
@testable import GatehouseManagedAPI

/// Joining a base URL and a relative URL, and every relative URL that must never be sent.
@Suite struct RelativeURLTests {
    func join(_ base: String, _ relative: String) throws -> String {
        try RelativeURL.join(URL(string: base)!, relative).absoluteString
    }

    @Test func joinsUnderTheBasePathWithTheQueryAsGiven() throws {
        #expect(try join("https://api.test/v1", "/me/top/tracks?limit=5") == "https://api.test/v1/me/top/tracks?limit=5")
        #expect(try join("https://api.test/v1/", "/me") == "https://api.test/v1/me")
        #expect(try join("https://api.test/v1", "me") == "https://api.test/v1/me")
        #expect(try join("https://api.test/v1", "") == "https://api.test/v1")
        #expect(try join("https://api.test/v1", "?q=1") == "https://api.test/v1?q=1")
        #expect(try join("https://api.test", "/x") == "https://api.test/x")
        #expect(try join("https://api.test:8443/v1", "/x?a=b&c=d+e") == "https://api.test:8443/v1/x?a=b&c=d+e")
        #expect(try join("https://api.test/v1", "/x#fragment") == "https://api.test/v1/x")
    }

    @Test func resolvesDotSegmentsInsideTheBase() throws {
        #expect(try join("https://api.test/v1", "/a/./b/../c") == "https://api.test/v1/a/c")
        #expect(try join("https://api.test/v1", "/a/%2e%2e/b") == "https://api.test/v1/b")
        #expect(try join("https://api.test/v1", "/a/..") == "https://api.test/v1/")
    }

    @Test func encodesWhatCannotStandInAURLAndKeepsEscapes() throws {
        #expect(try join("https://api.test/v1", "/search?q=hello world") == "https://api.test/v1/search?q=hello%20world")
        #expect(try join("https://api.test/v1", "/caf%C3%A9/100%") == "https://api.test/v1/caf%C3%A9/100%25")
        #expect(try join("https://api.test/v1", "/café") == "https://api.test/v1/caf%C3%A9")
        #expect(try join("https://gitlab.test/api/v4", "/projects/group%2Fproject") == "https://gitlab.test/api/v4/projects/group%2Fproject")
    }

    static let rejected = [
        "https://evil.test/x", "HTTP://evil.test", "http:evil.test", "javascript:alert(1)", "mailto:a@b.test", "//evil.test/x",
        "\\\\evil.test", "/\\evil.test", "/a\\b", "/..", "/../admin", "/a/../../admin", "/%2e%2e/admin", "/%2E%2E/%2e%2e/x", "/../v10",
        "/x\r\nHost: evil.test", "/x\u{0}", "/../../etc", "/a/./../..", "..", "../x",
    ]

    @Test(arguments: rejected) func rejects(_ relative: String) {
        #expect(throws: ManagedAPIException.self) { try RelativeURL.join(URL(string: "https://api.test/v1")!, relative) }
        do {
            _ = try RelativeURL.join(URL(string: "https://api.test/v1")!, relative)
        } catch let error as ManagedAPIException {
            #expect(error.errorCode == ManagedAPIErrorCodes.INVALID_URL)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(arguments: rejected) func aRejectedURLSendsNothingNotEvenADefinitionsSync(_ relative: String) async {
        let transport = ScriptedTransport { _ in .init(status: 200, body: "{}") }
        let service = makeService(transport, cache: MemoryDefinitionCache())
        let error = await exception { try await service.fetch(name: "open", relativeUrl: relative) }
        #expect(error?.errorCode == ManagedAPIErrorCodes.INVALID_URL)
        #expect(transport.requests.isEmpty)
    }

    @Test func aProxiedURLCannotClimbOutOfItsProxyPath() async {
        let transport = ScriptedTransport { _ in .init(status: 200) }
        let service = makeService(transport)
        let error = await exception { try await service.fetch(name: "crm", relativeUrl: "/a/../../../other/proxy/x") }
        #expect(error?.errorCode == ManagedAPIErrorCodes.INVALID_URL)
        #expect(transport.requests.isEmpty)
    }
}

/// How an answer's body is read (seed 002: parsed JSON, else the text, else nil).
@Suite struct ResponseBodyTests {
    func response(_ body: String, _ contentType: String?, status: Int = 200) -> ManagedApiFetchResponse {
        ManagedApiFetchResponse(status: status, headers: contentType.map { ["Content-Type": $0] } ?? [:], data: Data(body.utf8))
    }

    @Test func jsonIsParsed() throws {
        let answer = response(#"{"items":[1,2]}"#, "application/json; charset=utf-8")
        let json = try #require(answer.body as? [String: Any])
        #expect((json["items"] as? [Any])?.count == 2)
        #expect(answer.rawBody == #"{"items":[1,2]}"#)
    }

    @Test func plusJSONAndFragmentsAreParsed() throws {
        let problem = response(#"{"title":"Nope"}"#, "application/problem+json")
        #expect((problem.body as? [String: Any])?["title"] as? String == "Nope")
        #expect((response("42", "application/json").body as? NSNumber)?.intValue == 42)
        #expect(response(#""hi""#, "APPLICATION/JSON").body as? String == "hi")
    }

    @Test func textAndUnlabelledJSONStayText() {
        #expect(response("hello", "text/plain").body as? String == "hello")
        #expect(response(#"{"a":1}"#, nil).body as? String == #"{"a":1}"#)
    }

    @Test func invalidJSONLabelledJSONIsTheString() {
        let answer = response("{not json", "application/json")
        #expect(answer.body as? String == "{not json")
        #expect(answer.rawBody == "{not json")
    }

    @Test func anEmptyBodyIsNil() {
        let answer = response("", "application/json", status: 204)
        #expect(answer.body == nil && answer.rawBody == nil && answer.data.isEmpty)
    }

    @Test func okIsExactly2xx() {
        #expect(response("", nil, status: 200).ok && response("", nil, status: 299).ok)
        #expect(!response("", nil, status: 199).ok && !response("", nil, status: 300).ok && !response("", nil, status: 401).ok)
    }

    @Test func headersAreReadWithoutCase() {
        #expect(response("", "text/plain").header("content-type") == "text/plain")
    }
}
