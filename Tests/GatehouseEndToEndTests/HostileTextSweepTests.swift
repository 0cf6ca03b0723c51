import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every route of every dialect, with a NUL in each path parameter, each string field of a
/// valid body and a query argument, a number past 64 bits in each numeric field, and the body
/// nested past the limit, with valid credentials: never a 5xx, and the same answer
/// on SQLite and PostgreSQL (which refuses NUL in text).
@Suite struct HostileTextSweepTests {
    /// A valid body for every route that reads one, keyed `METHOD template`. A route added
    /// without a sample fails the sweep, so new fields are probed too.
    static let samples: [String: [String: Any]] = [
        "POST /admin/v1/tenants": ["name": "probe"],
        "POST /admin/v1/tenants/:tenantId/disable": [:],
        "POST /admin/v1/tenants/:tenantId/enable": [:],
        "POST /admin/v1/tenants/:tenantId/test-numbers": ["destination": "+14165550101", "code": "123456", "confirmed": false],
        "POST /admin/v1/tenants/:tenantId/prefix-blocks": ["prefix": "+447400"],
        "POST /dev/verification-callback": ["event": "verification_request", "data": ["id": "x", "destination": "14165550123", "delivery_method": "sms"]],
        "POST /admin/v1/tenants/:tenantId/applications": ["name": "probe"],
        "POST /admin/v1/tenants/:tenantId/keys": ["label": "probe", "platform": "IOS"],
        "POST /admin/v1/tenants/:tenantId/token-keys/rotate": [:],
        "POST /admin/v1/tenants/:tenantId/otp-applications": ["name": "probe", "smsDomain": "example.com"],
        "PATCH /admin/v1/tenants/:tenantId/otp-applications/:appId": ["name": "probe", "smsDomain": "example.com", "prefixHourlyLimit": 50, "autoBlockPrefixes": true],
        "PUT /admin/v1/tenants/:tenantId/otp-applications/:appId/templates/:group/:channel/:language": ["body": "Code {{CODE}}"],
        "POST /admin/v1/tenants/:tenantId/verification-balance": ["amount": "1.00"],
        "POST /api/v1/verifications": [
            "data": ["destination": "+14165550123", "delivery_method": "sms", "sms": ["template_group": "g", "languages": ["en-US"]], "custom": "c"],
        ],
        "PUT /api/v1/verifications/:id": ["data": ["delivery_method": "sms", "code": "123456"]],
        "PATCH /api/v1/verifications/:id": ["data": ["delivery_method": "sms", "code": "123456"]],
        "PUT /api/v1/verifications/by_number/:number": ["data": ["delivery_method": "sms", "code": "123456"]],
        "PATCH /api/v1/verifications/by_number/:number": ["data": ["delivery_method": "sms", "code": "123456"]],
        "POST /api/auth/v1/mobile/request-otp": ["phoneNumber": "+14165550124", "channel": "sms", "name": "Probe"],
        "POST /api/auth/v1/email/request-otp": ["email": "probe@example.com", "name": "Probe"],
        "POST /api/auth/v1/mobile/verify-otp": ["phoneNumber": "+14165550124", "otp": "123456", "channel": "sms"],
        "POST /api/auth/v1/passkeys/registration-options": [:],
        "POST /api/auth/v1/passkeys": ["name": "iPhone", "credential": [
            "id": "AQID", "rawId": "AQID", "type": "public-key", "response": ["clientDataJSON": "e30", "attestationObject": "oA"],
        ]],
        "PATCH /api/auth/v1/passkeys/:id": ["name": "iPhone"],
        "POST /api/auth/v1/passkeys/sign-in-options": ["phoneNumber": "+14165550100"],
        "POST /api/auth/v1/passkeys/sign-in": ["credential": [
            "id": "AQID", "rawId": "AQID", "type": "public-key",
            "response": ["clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA", "userHandle": "AQ"],
        ]],
        "PUT /api/tenants/v1/:tenantId/passkey-config": [
            "rpId": "id.example.com", "rpName": "Example", "origins": ["https://id.example.com"], "iosAppIds": ["ABCDE12345.com.example.app"], "enabled": false,
        ],
        "POST /api/auth/v1/email/verify-otp": ["email": "probe@example.com", "otp": "123456"],
        "POST /api/auth/v1/activate": [:],
        "POST /api/auth/v1/refresh": ["refreshToken": "probe"],
        "POST /api/auth/v1/logout": ["refreshToken": "probe"],
        "PATCH /api/users/v1/profile": ["name": "Probe", "country": "CA", "timezone": "America/Toronto"],
        "POST /api/purchases/v1/verify-purchase": [
            "platform": "google", "platformProductId": "p", "purchaseToken": "tok", "transactionId": "1", "signedTransaction": "x.y.z",
        ],
        "POST /api/purchases/v1/trial/start": [:],
        "PATCH /api/tenants/v1/:tenantId/apple-config": ["bundleId": "com.example.app", "issuerId": "i", "keyId": "k"],
        "PATCH /api/tenants/v1/:tenantId/google-play-config": [
            "packageName": "com.example.app", "serviceAccountKey": serviceAccountKey, "pushAudience": "https://gatehouse.example/webhooks/google-play",
            "pushServiceAccountEmail": "pubsub-push@gatehouse-test.iam.gserviceaccount.com", "production": false,
        ],
        "PUT /api/tenants/v1/:tenantId/pricing-config": ["provider": "apple", "iapCreditPackages": [["platformProductId": "p", "credits": 5, "displayName": "d"]]],
        "POST /api/tenants/v1/:tenantId/service-entitlement-products": [
            "displayName": "d", "interval": "monthly", "platformProductIds": ["apple": "p.monthly"], "gatedWorkflowId": "wf-1",
        ],
        "PATCH /api/tenants/v1/:tenantId/trial-config": ["ios": ["enabled": true, "durationDays": 7], "android": ["enabled": true, "durationDays": 3]],
        "POST /api/v1/mobile-stores/account-tokens": ["customer_id": "c"],
        "POST /api/v1/mobile-stores/account-tokens/:token/revoke": [:],
        "POST /api/v1/mobile-stores/purchases": ["customer_id": "c", "store": "google", "purchase_token": "tok", "product_id": "pro"],
        "POST /api/v1/mobile-stores/client/purchases": ["signed_transaction": "x.y.z"],
        "POST /webhooks/apple": ["signedPayload": "x.y.z"],
        "POST /webhooks/google-play": [
            "message": ["data": Data(#"{"packageName":"com.example.app","eventTimeMillis":"1764928800000","testNotification":{"version":"1.0"}}"#.utf8)
                .base64EncodedString(), "messageId": "136969346945", "publishTime": "2026-12-05T10:00:00.000Z"],
            "subscription": "projects/gatehouse-test/subscriptions/play",
        ],
        "PUT /admin/v1/tenants/:tenantId/workflows/:workflowId": [
            "name": "Probe", "description": "d", "category": "c", "credits": 2, "timeoutSeconds": 30, "responseType": "event",
            "executor": ["kind": "url-check", "config": ["input": "url"]],
            "inputs": [
                ["key": "url", "label": "Address", "type": "url", "placeholder": "p", "validation": ["required": true, "maxLength": 200]],
                ["key": "doc", "label": "Document", "type": "file", "fileOptions": ["accept": ".pdf", "maxSizeMb": 1, "multiple": false]],
            ],
        ],
        "PATCH /admin/v1/tenants/:tenantId/workflow-settings": [
            "workerUrl": "https://worker.example/run", "workerSecret": "0123456789abcdef-probe", "openaiModel": "m", "maxConcurrentRuns": 2,
        ],
        "POST /admin/v1/tenants/:tenantId/accounts/:accountId/credits": ["credits": 5],
        "POST /api/workflows/v1/execute": ["id": "wf-none", "input": ["url": "https://example.com", "count": 3]],
        "POST /api/workflows/callbacks/v1/:runId": ["status": "succeeded", "result": ["score": 1]],
        "PUT /admin/v1/tenants/:tenantId/managed-apis/:name": [
            "displayName": "Probe", "baseUrl": "https://api.example.com/v1", "authType": "OAUTH2", "mode": "proxied", "development": false,
            "metadata": ["tier": "gold"],
            "oauth2": [
                "grant": "client_credentials", "tokenEndpoint": "https://auth.example.com/token", "clientId": "c", "clientSecret": "s-probe",
                "scopes": ["read"], "authorizationParams": ["a": "b"], "rotatesRefreshTokens": false, "tokenEndpointAuthMethod": "client_secret_post",
            ],
        ],
        "PUT /admin/v1/tenants/:tenantId/possession": [
            "environment": "sandbox", "returnFullSsn": false, "carrierSecret": "probe-secret",
            "carrier": [
                "authorizationEndpoint": "https://op.example/authorize", "tokenEndpoint": "https://op.example/token", "apiBase": "https://op.example",
                "clientId": "gh", "redirectUri": "https://gh.example/back", "development": false,
            ],
        ],
        "POST /admin/v1/tenants/:tenantId/possession/clients": ["label": "probe"],
        "POST /admin/v1/tenants/:tenantId/possession/identities": [
            "identities": [[
                "phoneNumber": "+14165550100", "firstName": "Ada", "lastName": "Probe", "emailAddresses": ["a@example.com"], "dob": "1985-12-10",
                "ssn": "123456789", "addresses": [["address": "1 Main St", "extendedAddress": "Apt 1", "city": "Toronto", "region": "ON", "postalCode": "M5H 2N2"]],
            ]],
        ],
        "POST /token": ["grant_type": "client_credentials", "client_id": "ghpc_probe", "client_secret": "probe"],
        "POST /v3/start": [
            "flowType": "mobile", "phoneNumber": "+14165550100", "dob": "1985-12-10", "ssn": "6789", "emailAddress": "a@example.com",
            "ipAddress": "10.0.0.1", "smsMessage": "Code ####", "allowOTPRetry": true, "finalTargetUrl": "https://shop.example/done",
        ],
        "POST /v3/validate": ["correlationId": "00000000-0000-0000-0000-000000000000"],
        "POST /v3/challenge": ["correlationId": "00000000-0000-0000-0000-000000000000", "dob": "1985-12-10", "ssn": "6789"],
        "POST /v3/complete": [
            "correlationId": "00000000-0000-0000-0000-000000000000",
            "individual": [
                "firstName": "Ada", "lastName": "Probe", "dob": "1985-12-10", "ssn": "6789", "emailAddresses": ["a@example.com"],
                "addresses": [["address": "1 Main St", "city": "Toronto", "region": "ON", "postalCode": "M5H 2N2"]],
            ],
        ],
        "POST /api/possession/v1/begin": ["testMode": true, "sdkVersion": "6.4.0"],
        "POST /api/possession/v1/carrier-check": ["provider": "camara", "code": "c", "state": "s", "error": "no_cellular"],
        "POST /api/possession/v1/otp/start": ["phoneNumber": "+14165550100"],
        "POST /api/possession/v1/otp/finish": ["otp": "1234"],
        "POST /api/possession/v1/cancel": [:],
    ]
    /// A real key file, so the Google Play sample saves and each of its fields is reached.
    static let serviceAccountKey = try! GoogleServiceAccountKeyFile.generate().json
    /// The proxy forwards any bytes and keeps none: its bodies are probed for "never a 5xx" only.
    static let proxySample: [String: Any] = ["text": "probe", "count": 3]

    struct Probe {
        let store: StoreFixture
        let headers: [String: [String: String]]
        let parameters: [String: String]

        func credentials(_ path: String) -> [String: String] {
            headers.first { path.hasPrefix($0.key) }?.value ?? [:]
        }

        func send(_ method: String, _ path: String, body: Data?) async throws -> Int {
            var request = URLRequest(url: URL(string: store.live.credentials.baseURL + path)!)
            request.httpMethod = method
            if let body {
                request.httpBody = body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            for (name, value) in credentials(path) { request.setValue(value, forHTTPHeaderField: name) }
            return try await URLSessionTransport().send(request).1.statusCode
        }

        func path(_ template: String, poisoning poisoned: String? = nil) -> String {
            template.split(separator: "/").map { segment -> String in
                guard segment.hasPrefix(":") || segment == "*" else { return String(segment) }
                let name = String(segment.dropFirst())
                return name == poisoned ? "a%00b" : parameters[name] ?? "x"
            }.reduce("") { $0 + "/" + $1 }
        }
    }

    /// Every way to put one NUL into a string of `value`.
    static func poisoned(_ value: Any) -> [Any] {
        switch value {
        case let text as String: return [text + "\u{0}x"]
        case let object as [String: Any]:
            return object.flatMap { key, member in poisoned(member).map { variant -> Any in
                var copy = object
                copy[key] = variant
                return copy
            } }
        case let array as [Any]:
            return array.indices.flatMap { index in poisoned(array[index]).map { variant -> Any in
                var copy = array
                copy[index] = variant
                return copy
            } }
        default: return []
        }
    }

    /// Every way to put a number past 64 bits where the sample has a number: the sentinel
    /// string is swapped for the literal after serialising, since no Swift number holds it.
    static let big = "18446744073709551616"
    static func oversized(_ value: Any) -> [Any] {
        switch value {
        case is Bool: return []
        case is NSNumber: return ["__BIG__"]
        case let object as [String: Any]:
            return object.flatMap { key, member in oversized(member).map { variant -> Any in
                var copy = object
                copy[key] = variant
                return copy
            } }
        default: return []
        }
    }

    /// A bearer of the v3 API for the development tenant's client.
    static func possessionToken(_ live: LiveServer) async throws -> String {
        let client = try #require(live.credentials.possession)
        var request = URLRequest(url: live.baseURL.appendingPathComponent("token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=client_credentials&client_id=\(client.clientId)&client_secret=\(client.clientSecret)".utf8)
        let data = try await URLSessionTransport().send(request).0
        return try JSONDecoder().decode(ProveWire.TokenResponse.self, from: data).accessToken
    }

    @Test(arguments: TestDatabaseKind.available)
    func nulIsNeverA5xx(_ kind: TestDatabaseKind) async throws {
        let store = try await StoreFixture.start(kind)
        let live = store.live
        let admin = live.credentials.adminToken
        let access = try await store.signIn("+14165550100")
        let serverKey = try await live.app.directory.issueKey(tenantID: live.credentials.tenantId, label: "backend").secret
        let created = try await APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(admin)").send(
            "POST", "/admin/v1/tenants/\(live.credentials.tenantId)/otp-applications",
            body: RawJSON(Data(#"{"name":"sweep","minimumAuth":"public"}"#.utf8)), as: AdminWire.CreatedOTPApplication.self)
        let probe = Probe(
            store: store,
            headers: [
                "/admin": ["Authorization": "Bearer \(admin)"], "/api/tenants": ["Authorization": "Bearer \(admin)"],
                "/api/v1/verifications": ["Authorization": "Application \(created.application.appKey)"],
                "/api/v1/mobile-stores": ["Authorization": "Bearer \(serverKey)"],
                "/api/auth": ["x-api-key": live.credentials.apiKey, "Authorization": "Bearer \(access)"],
                "/api/users": ["x-api-key": live.credentials.apiKey, "Authorization": "Bearer \(access)"],
                "/api/purchases": ["x-api-key": live.credentials.apiKey, "Authorization": "Bearer \(access)"],
                "/api/workflows": ["Authorization": "Bearer \(access)", "X-App-Version": "1.0"],
                "/api/managed-apis": ["Authorization": "Bearer \(access)"],
                "/v3": ["Authorization": "Bearer \(try await Self.possessionToken(live))"],
            ],
            parameters: [
                "tenantId": live.credentials.tenantId, "appId": created.application.id, "group": "_default", "channel": "sms",
                "language": "en-US", "number": "14165550123", "productId": store.planID, "customerId": "c",
                "workflowId": "wf-probe", "accountId": "acct-probe", "id": "wf-url-001", "pageSize": "5", "page": "1", "limit": "5",
                "eventId": "evt_none", "runId": "evt_none", "index": "0", "name": "probe-api", "clientId": "ghpc_probe", "destination": "+14165550101", "prefix": "+447400",
                "phoneNumber": "+14165550100",
            ])
        // A proxied definition the proxy routes reach; its loopback destination is refused, never called.
        _ = try await APIClient(baseURL: live.baseURL).with(header: "Authorization", "Bearer \(admin)").sendRaw(
            "PUT", "/admin/v1/tenants/\(live.credentials.tenantId)/managed-apis/probe-api",
            body: Data(#"{"displayName":"Probe","baseUrl":"https://127.0.0.1:9","authType":"NONE","mode":"proxied"}"#.utf8))
        var probes = 0
        for route in live.app.router.routes {
            let name = "\(route.method.rawValue) \(route.template)"
            let validation = route.template.hasPrefix("/api/v1/verifications") ? 422 : 400
            let relays = route.template.contains("/proxy")
            let sample = relays && ["POST", "PUT", "PATCH"].contains(route.method.rawValue) ? Self.proxySample : Self.samples[name]
            let takesBody = ["POST", "PUT", "PATCH"].contains(route.method.rawValue)
            if takesBody, sample == nil { Issue.record("no sample body for \(name)") }
            let body = try sample.map { try JSONSerialization.data(withJSONObject: $0) }
            // Each path parameter in turn.
            for segment in route.template.split(separator: "/") where segment.hasPrefix(":") {
                let status = try await probe.send(route.method.rawValue, probe.path(route.template, poisoning: String(segment.dropFirst())), body: body)
                #expect(status == 404, "\(name) with NUL in \(segment): \(status)")
                probes += 1
            }
            // A query argument.
            let query = try await probe.send(route.method.rawValue, probe.path(route.template) + "?to=a%00b", body: body)
            #expect(query == validation, "\(name) with NUL in the query: \(query)")
            // Each string field of the body.
            for variant in sample.map(Self.poisoned) ?? [] {
                let status = try await probe.send(route.method.rawValue, probe.path(route.template), body: try JSONSerialization.data(withJSONObject: variant))
                #expect(relays ? status < 500 : status == validation, "\(name) with \(variant): \(status)")
                probes += 1
            }
            guard let sample else { continue }
            // Numbers past 64 bits: refused or read, never a 5xx.
            for variant in Self.oversized(sample) {
                let text = String(decoding: try JSONSerialization.data(withJSONObject: variant), as: UTF8.self)
                    .replacingOccurrences(of: "\"__BIG__\"", with: Self.big)
                let status = try await probe.send(route.method.rawValue, probe.path(route.template), body: Data(text.utf8))
                #expect(status < 500, "\(name) with \(text): \(status)")
                probes += 1
            }
            // Nested past the limit around the sample: the body's syntax, refused.
            let deep = String(repeating: #"{"a":"#, count: 40) + String(decoding: body ?? Data("{}".utf8), as: UTF8.self)
                + String(repeating: "}", count: 40)
            let nested = try await probe.send(route.method.rawValue, probe.path(route.template), body: Data(deep.utf8))
            #expect(relays ? nested < 500 : nested == 400, "\(name) nested 41 deep: \(nested)")
        }
        #expect(probes > 80)
        #expect(!live.logs.lines.contains { $0.contains("\"level\":\"error\"") })
        await store.stop()
    }
}
