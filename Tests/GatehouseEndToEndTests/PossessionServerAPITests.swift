import Foundation
import GatehouseClientCore
import GatehousePossession
import GatehousePossessionSample
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The v3 server API's rules through the sample backend's client and raw requests: `next`
/// enforced, one-time authTokens, challenges by date of birth and by the SSN's last four,
/// Complete's per-field results, and test mode refused for production tenants.
@Suite(.serialized) struct PossessionServerAPITests {
    static let ada = PossessionFlowTests.carrierPasses

    /// A raw POST, for literal JSON answers.
    func post(_ url: URL, bearer: String?, json: String) async throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    func accessToken(_ f: PossessionFixture) async throws -> String {
        let credentials = try #require(f.live.credentials.possession)
        var request = URLRequest(url: f.live.baseURL.appendingPathComponent("token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=client_credentials&client_id=\(credentials.clientId)&client_secret=\(credentials.clientSecret)".utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["access_token", "token_type", "expires_in"])
        #expect(object["token_type"] as? String == "Bearer" && object["expires_in"] as? Int == 3600)
        return try #require(object["access_token"] as? String)
    }

    @Test(arguments: TestDatabaseKind.available)
    func stepsOutOfOrderAreRefusedAndAuthTokensWorkOnce(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let bearer = try await accessToken(f)
            let base = f.live.baseURL
            let (status, body) = try await post(base.appendingPathComponent("v3/start"), bearer: bearer, json: #"{"flowType":"mobile","phoneNumber":"\#(Self.ada)"}"#)
            #expect(status == 200)
            let started = try JSONDecoder().decode(ProveWire.StartResponse.self, from: Data(body.utf8))
            #expect(started.next == ["v3-validate": "/v3/validate"])
            let id = started.correlationId
            for path in ["v3/challenge", "v3/complete"] {
                let (refused, text) = try await post(
                    base.appendingPathComponent(path), bearer: bearer, json: #"{"correlationId":"\#(id)","dob":"1985-12-10","individual":{"firstName":"A","lastName":"B"}}"#)
                #expect(refused == 403 && text == #"{"code":1003,"message":"step not allowed"}"#, "\(path): \(text)")
            }
            let (missing, missingText) = try await post(base.appendingPathComponent("v3/start"), bearer: bearer, json: #"{"phoneNumber":"\#(Self.ada)"}"#)
            #expect(missing == 400 && missingText == #"{"code":1001,"message":"field 'flowType' is missing"}"#)
            let (noBearer, _) = try await post(base.appendingPathComponent("v3/validate"), bearer: "ghpt_nope", json: #"{"correlationId":"\#(id)"}"#)
            #expect(noBearer == 401)
            // The device API's own refusals, in the same envelope.
            let begin = base.appendingPathComponent("api/possession/v1/begin")
            #expect(try await post(begin, bearer: started.authToken, json: "{}") == (400, #"{"code":1001,"message":"field 'testMode' is missing"}"#))
            #expect(try await post(begin, bearer: started.authToken, json: "[1]") == (400, #"{"code":1000,"message":"the body must be a JSON object"}"#))
            #expect(try await post(base.appendingPathComponent("api/possession/v1/nothing"), bearer: nil, json: "{}").0 == 404)
            // One way of sending client credentials per request (RFC 6749 §2.3).
            let credentials = try #require(f.live.credentials.possession)
            var both = URLRequest(url: base.appendingPathComponent("token"))
            both.httpMethod = "POST"
            both.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            both.setValue("Basic " + Data("\(credentials.clientId):\(credentials.clientSecret)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            both.httpBody = Data("grant_type=client_credentials&client_id=\(credentials.clientId)".utf8)
            let (bothData, bothResponse) = try await URLSession.shared.data(for: both)
            #expect((bothResponse as? HTTPURLResponse)?.statusCode == 400 && String(decoding: bothData, as: UTF8.self).contains(#""code":1000"#))

            let steps = ScriptedSteps()
            let authId = try await f.sdk(testMode: true, steps: steps).authenticate(started.authToken)
            #expect(authId == id)
            await #expect(throws: PossessionAuthError.authTokenInvalid) { try await f.sdk(testMode: true, steps: steps).authenticate(started.authToken) }
            let (replayed, replayText) = try await post(
                base.appendingPathComponent("api/possession/v1/begin"), bearer: started.authToken, json: #"{"testMode":true}"#)
            #expect(replayed == 401 && replayText.contains(#""code":1005"#))
            #expect(steps.authFinished == [id])

            let (validated, validText) = try await post(base.appendingPathComponent("v3/validate"), bearer: bearer, json: #"{"correlationId":"\#(id)"}"#)
            #expect(validated == 200)
            #expect(try JSONSerialization.jsonObject(with: Data(validText.utf8)) as? NSDictionary == [
                "success": true, "challengeMissing": true, "phoneNumber": Self.ada, "next": ["v3-challenge": "/v3/challenge"],
            ] as NSDictionary)
            let (again, againText) = try await post(base.appendingPathComponent("v3/validate"), bearer: bearer, json: #"{"correlationId":"\#(id)"}"#)
            #expect(again == 403 && againText.contains("1003"), "Validate is not in next any more")
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func challengeByDateOfBirthAndBySSNLastFour(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            for challenge in [SampleWire.Verify(authId: nil, dob: "1985-12-10"), SampleWire.Verify(authId: nil, ssn: "6789")] {
                let token = try await f.app.initialize(.init(phoneNumber: Self.ada, flowType: "mobile"))
                let authId = try await f.sdk(testMode: true, steps: ScriptedSteps()).authenticate(token)
                let missing = try await f.app.verify(.init(authId: authId))
                #expect(missing["challengeMissing"] as? Bool == true)
                let wrong = try await f.app.verify(.init(authId: authId, dob: "1985-12-11"))
                #expect(wrong["success"] as? Bool == false)
                var right = challenge
                right.authId = authId
                let verified = try await f.app.verify(right)
                #expect(verified["success"] as? Bool == true && verified["firstName"] as? String == "Ada", "\(challenge)")
                #expect((verified["addresses"] as? [[String: Any]])?.first?["city"] as? String == "Springfield")
                #expect(verified["dob"] as? String == "1985-12-10")
            }
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func completeComparesEditedNamesAndADifferentAddress(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            // José Núñez, whose number ends 00: the carrier check is unavailable, the code follows.
            let token = try await f.app.initialize(.init(phoneNumber: "+12025550100", flowType: "mobile", dob: "01-31"))
            let steps = ScriptedSteps(start: [.confirm], finish: [.code { "1234" }])
            let authId = try await f.sdk(testMode: true, steps: steps).authenticate(token)
            let verified = try await f.app.verify(.init(authId: authId))
            #expect(verified["lastName"] as? String == "Núñez")
            let edited = try await f.app.finish(.init(
                authId: authId, firstName: " jose ", lastName: "NUNEZ",
                address: .init(address: "7 W Rd", city: "austin", region: "Texas", postalCode: "78701-0001")))
            #expect(edited["success"] as? Bool == true, "\(edited)")
            #expect(edited["changeDetected"] as? Bool == true)
            let source = try #require((edited["idv"] as? [String: Any])?["dataSource1"] as? [String: Any])
            #expect(source["name"] as? NSDictionary == ["firstName": 100, "lastName": 100, "nameScore": 100] as NSDictionary)
            #expect((source["address"] as? [String: Any])?["addressScore"] as? Int == 100)

            let other = try await f.app.initialize(.init(phoneNumber: Self.ada, flowType: "mobile", ssn: "123456789"))
            let otherId = try await f.sdk(testMode: true, steps: ScriptedSteps()).authenticate(other)
            _ = try await f.app.verify(.init(authId: otherId))
            let moved = try await f.app.finish(.init(
                authId: otherId, firstName: "Ada", lastName: "Byron", address: .init(address: "1 Elm Street", city: "Springfield", region: "IL", postalCode: "62701")))
            #expect(moved["success"] as? Bool == false)
            let result = try #require((moved["idv"] as? [String: Any])?["dataSource1"] as? [String: Any])
            #expect(Set(result["reasonCodes"] as? [String] ?? []) == ["NAME_MISMATCH", "ADDRESS_MISMATCH"])
            #expect((result["address"] as? [String: Any])?["street"] as? Bool == false)
            #expect((result["address"] as? [String: Any])?["city"] as? Bool == true)
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func testModeIsRefusedForAProductionTenant(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            try await f.makeProduction()
            let token = try await f.app.initialize(.init(phoneNumber: PossessionFixture.productionNumber, flowType: "mobile"))
            // The SDK reads `env: production` in the token and refuses before any call …
            await #expect(throws: PossessionAuthError.testModeRefused) { try await f.sdk(testMode: true, steps: ScriptedSteps()).authenticate(token) }
            // … and the server refuses test mode itself, leaving the token unspent.
            let (status, text) = try await post(f.live.baseURL.appendingPathComponent("api/possession/v1/begin"), bearer: token, json: #"{"testMode":true}"#)
            #expect(status == 403 && text.contains(#""code":1010"#))
            let steps = ScriptedSteps(start: [.confirm], finish: [.code { try await f.code(for: PossessionFixture.productionNumber) }])
            let authId = try await f.sdk(testMode: false, steps: steps).authenticate(token)
            #expect(steps.authFinished == [authId])
        } catch { Issue.record(error) }
        await f.stop()
    }
}
