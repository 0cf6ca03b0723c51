import Foundation
import Testing
@testable import GatehouseManagedAPIsEngine

@Suite struct ProxyPathTests {
    let base = URL(string: "https://api.example.com/v1")!

    @Test func pathsJoinUnderTheBasePath() throws {
        let cases: [(String, [(name: String, value: String)], String)] = [
            ("", [], "https://api.example.com/v1"),
            ("/", [], "https://api.example.com/v1"),
            ("/me/top/tracks", [("limit", "5")], "https://api.example.com/v1/me/top/tracks?limit=5"),
            ("/a/./b/../c", [], "https://api.example.com/v1/a/c"),
            ("/caf%C3%A9", [("q", "a&b=c"), ("x", "é")], "https://api.example.com/v1/caf%C3%A9?q=a%26b%3Dc&x=%C3%A9"),
            ("/@evil.com", [], "https://api.example.com/v1/@evil.com"),
            ("/items;v=2/a:b!$&'()*+,=", [], "https://api.example.com/v1/items;v=2/a:b!$&'()*+,="),
        ]
        for (path, query, expected) in cases {
            #expect(try ProxyPath.join(base: base, rawPath: path, query: query).absoluteString == expected, "\(path)")
        }
        #expect(try ProxyPath.join(base: URL(string: "https://api.example.com")!, rawPath: "/x", query: []).absoluteString == "https://api.example.com/x")
    }

    /// The base's scheme, host, port and path as written; one with user info, a query or a
    /// fragment (which a saved definition never has) is not joined onto.
    @Test func theBaseIsKeptAsWritten() throws {
        let local = URL(string: "http://127.0.0.1:8080/api/")!
        #expect(try ProxyPath.join(base: local, rawPath: "/x/", query: []).absoluteString == "http://127.0.0.1:8080/api/x/")
        #expect(try ProxyPath.join(base: local, rawPath: "", query: [("a", "1")]).absoluteString == "http://127.0.0.1:8080/api?a=1")
        let bare = URL(string: "https://API.example.com:8443")!
        #expect(try ProxyPath.join(base: bare, rawPath: "", query: [("a", "1")]).absoluteString == "https://API.example.com:8443/?a=1")
        for unusable in ["https://user:pw@api.example.com/v1", "https://api.example.com/v1?k=1", "https://api.example.com/v1#f", "mailto:a@example.com"] {
            #expect(throws: ManagedAPIError.self, "\(unusable)") { try ProxyPath.join(base: URL(string: unusable)!, rawPath: "/x", query: []) }
        }
    }

    @Test func escapesAndTricksAreRefused() {
        let refused = [
            "//evil.com/x", "/http://evil.example/x", "/echo//x", "/a//", "/a//b/", "/https:///x", "/../secret", "/a/../../b", "/%2e%2e/admin", "/%2E./x", "/a%2fb", "/a%2Fb", "/a%5cb", "/a\\b", "/a%00b",
            "/a%0d%0aX-Injected:1", "/a b", "relative", "https://evil.com", "/a%zz", "/a%4", "/\u{00e9}", "/a{b}", "/a|b", "/a^b", "/a`b",
            "/a\"b", "/a<b>", "/a#b", "/a?b", "/a[0]", "/..;/admin", "/a/.;x/b", "/x/..;jsessionid=1", "/x/..%3b/admin", "/x/..%3B",
        ]
        for path in refused {
            #expect(throws: ManagedAPIError.self, "\(path)") { try ProxyPath.join(base: base, rawPath: path, query: []) }
        }
    }
}
