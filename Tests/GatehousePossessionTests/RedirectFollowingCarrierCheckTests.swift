import Foundation
import GatehouseClientCore
import Testing
@testable import GatehousePossession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An operator stand-in: answers each GET from a handler (status and `Location`) and records it.
final class OperatorStandIn: Transport, @unchecked Sendable {
    typealias Handler = @Sendable (URLRequest) throws -> (Int, String?)
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [URLRequest] { lock.withLock { recorded } }
    var urls: [String] { requests.compactMap { $0.url?.absoluteString } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { recorded.append(request) }
        let (status, location) = try handler(request)
        let headers = location.map { ["Location": $0] } ?? [:]
        return (Data(), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
    }
}

/// The redirect walk over a transport, against scripted 302 chains.
@Suite struct RedirectFollowingCarrierCheckTests {
    static let challenge = CarrierCheckChallenge(
        provider: "camara", url: URL(string: "https://operator.test/authorize?state=s1"), redirectUri: URL(string: redirectUri))

    static func check(_ standIn: OperatorStandIn, network: String = "cellular") -> RedirectFollowingCarrierCheck {
        RedirectFollowingCarrierCheck(transport: standIn, headers: ["X-Test-Network": network])
    }

    @Test func relativeAndAbsoluteHopsLeadToTheRedirectUrisCode() async {
        let standIn = OperatorStandIn { request in
            switch request.url?.absoluteString {
            case "https://operator.test/authorize?state=s1": (302, "/hop/1?x=1")
            case "https://operator.test/hop/1?x=1": (302, "login?y=2")
            case "https://operator.test/hop/login?y=2": (303, "https://idp.operator.test/next")
            case "https://idp.operator.test/next": (307, "\(redirectUri)?code=abc&state=s1")
            default: (404, nil)
            }
        }
        #expect(await Self.check(standIn).run(Self.challenge) == .redirected(code: "abc", state: "s1", error: nil))
        #expect(standIn.urls == [
            "https://operator.test/authorize?state=s1", "https://operator.test/hop/1?x=1", "https://operator.test/hop/login?y=2",
            "https://idp.operator.test/next",
        ])
        #expect(standIn.requests.allSatisfy { $0.httpMethod == "GET" && $0.value(forHTTPHeaderField: "X-Test-Network") == "cellular" })
    }

    @Test(arguments: [
        ("cellular", CarrierCheckOutcome.redirected(code: "c-1", state: "s1", error: nil)),
        ("wifi", .redirected(code: nil, state: "s1", error: "login_required")),
    ])
    func theOperatorDecidesByTheNetwork(network: String, expected: CarrierCheckOutcome) async {
        let standIn = OperatorStandIn { request in
            if request.url?.path == "/authorize" { return (302, "/prompt-none") }
            let cellular = request.value(forHTTPHeaderField: "X-Test-Network") == "cellular"
            return (302, "\(redirectUri)?\(cellular ? "code=c-1" : "error=login_required")&state=s1")
        }
        #expect(await Self.check(standIn, network: network).run(Self.challenge) == expected)
    }

    @Test func tenRedirectsMayReachTheRedirectUriButNotMore() async {
        func chain(_ length: Int) -> OperatorStandIn {
            OperatorStandIn { request in
                let hop = Int(request.url?.lastPathComponent ?? "") ?? 0
                return (302, hop + 1 == length ? "\(redirectUri)?code=c&state=s" : "/hop/\(hop + 1)")
            }
        }
        let ten = chain(10)
        #expect(await Self.check(ten).run(Self.challenge) == .redirected(code: "c", state: "s", error: nil))
        #expect(ten.requests.count == 10)
        let eleven = chain(11)
        #expect(await Self.check(eleven).run(Self.challenge) == .redirectError)
        #expect(eleven.requests.count == 10)
    }

    @Test func aLoopIsARedirectError() async {
        let standIn = OperatorStandIn { _ in (302, "/authorize?state=s1") }
        #expect(await Self.check(standIn).run(Self.challenge) == .redirectError)
        #expect(standIn.requests.count == 10)
    }

    @Test(arguments: [(200, nil), (302, nil), (302, "  "), (304, "/x"), (302, "javascript:alert(1)"), (302, "file:///etc/passwd")] as [(Int, String?)])
    func anAnswerThatIsNotAUsableRedirectBreaksTheWalk(status: Int, location: String?) async {
        let standIn = OperatorStandIn { _ in (status, location) }
        #expect(await Self.check(standIn).run(Self.challenge) == .redirectError)
        #expect(standIn.requests.count == 1)
    }

    @Test(arguments: [(URLError.Code.notConnectedToInternet, CarrierCheckOutcome.noCellular), (.timedOut, .timeout), (.cannotFindHost, .noCellular)])
    func aTransportFailureMeansTheCheckCouldNotRun(code: URLError.Code, expected: CarrierCheckOutcome) async {
        #expect(await Self.check(OperatorStandIn { _ in throw URLError(code) }).run(Self.challenge) == expected)
    }

    @Test func aChallengeWithoutURLsOpensNothing() async {
        let standIn = OperatorStandIn { _ in (302, redirectUri) }
        let check = Self.check(standIn)
        #expect(await check.run(CarrierCheckChallenge(provider: "camara", url: nil, redirectUri: URL(string: redirectUri))) == .redirectError)
        #expect(await check.run(CarrierCheckChallenge(provider: "camara", url: Self.challenge.url, redirectUri: nil)) == .redirectError)
        #expect(standIn.requests.isEmpty)
    }

    @Test(arguments: [
        "http://127.0.0.1:80/cb?code=1", "HTTP://127.0.0.1/cb?code=1", "com.example.app:/possession?code=1",
    ])
    func theRedirectUriMatchesBySchemeHostPortAndPath(location: String) async {
        let target = location.hasPrefix("com.") ? "com.example.app:/possession" : "http://127.0.0.1/cb"
        let challenge = CarrierCheckChallenge(provider: "camara", url: Self.challenge.url, redirectUri: URL(string: target))
        let standIn = OperatorStandIn { _ in (302, location) }
        #expect(await Self.check(standIn).run(challenge) == .redirected(code: "1", state: nil, error: nil))
        #expect(standIn.requests.count == 1)
    }

    @Test func aPathOrPortThatDiffersIsNotTheRedirectUri() {
        let target = URL(string: "http://127.0.0.1:8080/cb")!
        #expect(RedirectWalk.matches(URL(string: "http://127.0.0.1:8080/cb?x=1")!, target))
        #expect(!RedirectWalk.matches(URL(string: "http://127.0.0.1:8081/cb")!, target))
        #expect(!RedirectWalk.matches(URL(string: "http://127.0.0.1:8080/cb/more")!, target))
        #expect(!RedirectWalk.matches(URL(string: "https://127.0.0.1:8080/cb")!, target))
    }
}

/// The bytes `CellularCarrierCheck` writes and reads on each hop.
@Suite struct HTTPHeadTests {
    @Test func theRequestIsAMinimalHTTP11Get() {
        let request = HTTPHead.request(for: URL(string: "https://operator.test:8443/a%20b/c?x=1&y=%2F")!, headers: ["X-Test-Network": "cellular"])
        #expect(request.map { String(decoding: $0, as: UTF8.self) } ==
            "GET /a%20b/c?x=1&y=%2F HTTP/1.1\r\nHost: operator.test:8443\r\nAccept: */*\r\nConnection: close\r\nX-Test-Network: cellular\r\n\r\n")
        let plain = HTTPHead.request(for: URL(string: "http://operator.test:80")!, headers: ["Bad": "a\r\nInjected: 1"])
        #expect(plain.map { String(decoding: $0, as: UTF8.self) } == "GET / HTTP/1.1\r\nHost: operator.test\r\nAccept: */*\r\nConnection: close\r\n\r\n")
    }

    @Test func theHeadGivesStatusAndLocation() {
        let head = HTTPHead(parsing: Data("HTTP/1.1 302 Found\r\nContent-Length: 0\r\nlocation:  /next?a=1 \r\n\r\nbody".utf8))
        #expect(head == HTTPHead(status: 302, location: "/next?a=1"))
        #expect(HTTPHead(parsing: Data("HTTP/1.1 302 Found\r\nLocation: /n".utf8)) == nil)
        #expect(HTTPHead(parsing: Data("SSH-2.0-OpenSSH\r\n\r\n".utf8)) == HTTPHead(status: 0, location: nil))
        #expect(HTTPHead(parsing: Data("HTTP/1.0 200 OK\r\n\r\n".utf8)) == HTTPHead(status: 200, location: nil))
    }
}
