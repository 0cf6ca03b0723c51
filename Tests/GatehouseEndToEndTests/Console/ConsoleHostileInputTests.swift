import Foundation
import GatehouseConsoleEngine
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// Hostile requests to the console get one of its pages with a 4xx, never a 500, and change nothing.
@Suite struct ConsoleHostileInputTests {
    @Test(arguments: TestDatabaseKind.available)
    func hostileQueriesAndFormsAreRefusedAsPages(_ kind: TestDatabaseKind) async throws {
        try await ConsoleFixture.run(kind) { f in
            let visitor = try await f.signedIn(f.admin)
            let tenantID = f.live.credentials.tenantId
            for path in ["/accounts?tenant=\(tenantID)&q=%00", "/verifications?country=%00%00", "/audit?action=a%00b", "/runs?account=%00", "/?tenant=%00"] {
                let page = try await visitor.get(path)
                #expect(page.status == 400 && page.header("Content-Security-Policy") != nil, "\(path)")
            }
            let tolerated = ["/audit?before=abc", "/audit?before=99999999999999999999999-x", "/audit?before=9223372036854775807-x",
                             "/verifications?before=9223372036854775807-x", "/audit?before=-9223372036854775808-x", "/verifications?before=-1-", "/?days=-5",
                             "/verifications?status=nope&channel=%F0%9F%99%82", "/accounts?q=%25_%5C", "/runs?status=%3Cscript%3E",
                             "/prefix-blocks?tenant=nope&application=nope", "/accounts?q=" + String(repeating: "9", count: 5000)]
            for path in tolerated { #expect(try await visitor.get(path).status == 200, "\(path)") }
            let csrf = try #require(try await visitor.get("/tenants").csrf)
            let before = try await f.live.app.directory.tenants().count
            let refused: [(String, [String: String], Int)] = [
                ("/tenants", ["name": "a\u{0}b"], 400), ("/tenants", ["name": ""], 400), ("/tenants", ["name": String(repeating: "n", count: 10_000)], 400),
                ("/prefix-blocks/pin", ["tenant": tenantID, "prefix": "\u{0}44"], 400), ("/confirm", ["password": "x\u{0}"], 400),
                // An operator's passkey: what the browser sent cannot be read, or is no registration.
                ("/account/passkeys", ["credential": "{", "name": "Key"], 400),
                ("/account/passkeys", ["credential": String(repeating: "[", count: 20_000), "name": "Key"], 400),
                ("/account/passkeys", ["credential": #"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"AA","attestationObject":"oA"}}"#, "name": "Key"], 400),
                ("/account/passkeys", ["credential": #"{"id":1e400,"rawId":[],"type":null}"#, "name": "Key"], 400),
                ("/account/passkeys", ["credential": "", "name": "a\u{0}b"], 400),
                ("/account/passkeys/no-such-passkey/remove", [:], 404),
            ]
            for (path, fields, status) in refused {
                #expect(try await visitor.post(path, fields, csrf: csrf).status == status, "\(path) \(fields.keys.sorted())")
            }
            let raw: [(String, String, Int)] = [
                ("application/x-www-form-urlencoded", "csrf=\(csrf)&name=a&name=b", 400),
                ("application/json", "{\"csrf\":\"\(csrf)\",\"name\":\"json\"}", 400),
                ("application/x-www-form-urlencoded", "csrf=\(csrf)&name=%ZZ%", 303),
                ("application/x-www-form-urlencoded", "csrf=\(csrf)&name=" + String(repeating: "x", count: 70_000), 413),
                ("application/x-www-form-urlencoded", String(repeating: "&", count: 60_000), 403),
            ]
            for (type, body, status) in raw {
                let page = try await visitor.send("POST", "/tenants", body: Data(body.utf8), headers: [
                    ("Content-Type", type), ("Sec-Fetch-Site", "same-origin"), ("Origin", visitor.base),
                ])
                #expect(page.status == status, "\(type) \(body.prefix(40))")
                if status != 303 { #expect(page.header("Content-Type") == "text/html; charset=utf-8", "\(body.prefix(40))") }
            }
            #expect(try await f.live.app.directory.tenants().count == before + 1)
        }
    }
}
