import Foundation
import GatehousePossessionEngine
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing
@testable import GatehouseServer

/// What Prove's own server SDKs (prove-sdk-server-go, prove-sdk-server-typescript) and its public
/// collection expect, sent as they send it to the development tenant: Start without a number,
/// the short-term test user walked with no device, Complete with the SSN alone, empty arrays
/// left out, and refusals only in the statuses each operation decodes.
@Suite(.serialized) struct ProveSDKExpectationTests {
    /// What the SDKs decode from Validate, Challenge and Complete (Go `v3.go`, TS `src/funcs/v3V3*.ts`).
    static let decodedStatuses: Set<Int> = [200, 400, 401, 403, 500]
    let api = PossessionServerAPITests()

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test(arguments: TestDatabaseKind.available)
    func provesCollectionWalksTheShortTermUserWithNoDevice(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let bearer = try await api.accessToken(f)
            let v3 = f.live.baseURL.appendingPathComponent("v3")
            let (status, body) = try await api.post(
                v3.appendingPathComponent("start"), bearer: bearer, json: #"{"flowType":"desktop","phoneNumber":"2001001695","finalTargetUrl":"https://www.example.com"}"#)
            #expect(status == 200, "\(body)")
            let id = try JSONDecoder().decode(ProveWire.StartResponse.self, from: Data(body.utf8)).correlationId
            let (_, validated) = try await api.post(v3.appendingPathComponent("validate"), bearer: bearer, json: #"{"correlationId":"\#(id)"}"#)
            #expect(try object(validated) as NSDictionary == [
                "success": true, "challengeMissing": true, "phoneNumber": "+12001001695", "next": ["v3-challenge": "/v3/challenge"],
            ] as NSDictionary)
            let (_, challenged) = try await api.post(v3.appendingPathComponent("challenge"), bearer: bearer, json: #"{"correlationId":"\#(id)","dob":"1981-01-17"}"#)
            let individual = try #require(try object(challenged)["individual"] as? [String: Any], "\(challenged)")
            #expect(individual["firstName"] as? String == "Milo" && individual["ssn"] as? String == "0596")
            // Prove's table entry as Complete takes it; the address has no extendedAddress.
            let (done, completed) = try await api.post(v3.appendingPathComponent("complete"), bearer: bearer, json: """
                {"correlationId":"\(id)","individual":{"firstName":"Milo","lastName":"Pinson","dob":"1981-01-17","ssn":"847350596",
                 "emailAddresses":["mpinsonm@dyndns.org"],
                 "addresses":[{"address":"6377 Birchwood Hill","city":"Littleton","region":"CO","postalCode":"80161-2001"}]}}
                """)
            #expect(done == 200 && !completed.contains("reasonCodes"), "\(completed)")
            let source = try #require(try JSONDecoder().decode(ProveWire.CompleteResponse.self, from: Data(completed.utf8)).idv?.dataSource1)
            #expect(source.address == .init(street: true, city: true, region: true, postalCode: true, addressScore: 100))
            #expect(source.name == .init(firstName: 100, lastName: 100, nameScore: 100) && source.cipConfidence == "high")
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func completeTakesTheSSNAloneAndAnswersWithoutAName(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let client = f.backend.client
            let id = try await client.start(ProveWire.StartRequest(flowType: "mobile", phoneNumber: "+12001004000", ssn: "9347")).correlationId
            #expect(try await client.validate(correlationId: id).success)
            #expect(try await client.challenge(ProveWire.ChallengeRequest(correlationId: id)).individual?.lastName == "Goodram")
            let bearer = try await api.accessToken(f)
            let complete = f.live.baseURL.appendingPathComponent("v3/complete")
            #expect(try await api.post(complete, bearer: bearer, json: #"{"correlationId":"\#(id)","individual":{"dob":"1995-07-26"}}"#)
                == (400, #"{"code":1001,"message":"field 'individual.firstName' (or 'individual.ssn') is missing"}"#))
            let (status, text) = try await api.post(complete, bearer: bearer, json: #"{"correlationId":"\#(id)","individual":{"ssn":"490959347"}}"#)
            #expect(status == 200 && !text.contains("\"name\"") && !text.contains("reasonCodes"), "\(text)")
            let idv = try #require(try JSONDecoder().decode(ProveWire.CompleteResponse.self, from: Data(text.utf8)).idv)
            #expect(idv.dataSource1.identifiers.ssn == true && idv.multiCIPConfidence == "high")
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aCorrelationIdThatNamesNoFlowIsA400TheSDKsDecode(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let bearer = try await api.accessToken(f)
            for step in ["validate", "challenge", "complete"] {
                for id in [UUID().uuidString.lowercased(), "not-a-flow"] {
                    let (status, text) = try await api.post(
                        f.live.baseURL.appendingPathComponent("v3/\(step)"), bearer: bearer,
                        json: #"{"correlationId":"\#(id)","dob":"1981-01-17","individual":{"ssn":"847350596"}}"#)
                    #expect(Self.decodedStatuses.contains(status) && status == 400, "\(step): \(status)")
                    #expect(try JSONDecoder().decode(ProveWire.ErrorBody.self, from: Data(text.utf8)) == .init(code: 8008, message: "invalid correlation ID"))
                }
            }
        } catch { Issue.record(error) }
        await f.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func startWithoutANumberLetsTheDeviceGiveIt(_ kind: TestDatabaseKind) async throws {
        let f = try await PossessionFixture.start(kind)
        do {
            let bearer = try await api.accessToken(f)
            let start = f.live.baseURL.appendingPathComponent("v3/start")
            // The Go SDK README's example, on its sandbox.
            let (status, text) = try await api.post(start, bearer: bearer, json: #"{"flowType":"desktop","finalTargetUrl":"https://www.example.com"}"#)
            let keys = Set(try object(text).keys)
            #expect(status == 200 && keys == ["authToken", "correlationId", "next"], "\(text)")
            #expect(try await api.post(start, bearer: bearer, json: #"{"flowType":"desktop"}"#) == (400, #"{"code":1001,"message":"field 'finalTargetUrl' is missing"}"#))
            let (_, mobile) = try await api.post(start, bearer: bearer, json: #"{"flowType":"mobile"}"#)
            let started = try JSONDecoder().decode(ProveWire.StartResponse.self, from: Data(mobile.utf8))
            let steps = ScriptedSteps(start: [.number(PossessionFlowTests.carrierPasses)], finish: [.code { "1234" }])
            _ = try await f.sdk(testMode: true, steps: steps).authenticate(started.authToken)
            #expect(steps.starts.map(\.needed) == [true])
            let validated = try await f.backend.client.validate(correlationId: started.correlationId)
            #expect(validated.success && validated.phoneNumber == PossessionFlowTests.carrierPasses)
        } catch { Issue.record(error) }
        await f.stop()
    }

    /// The pre-fill of a record with no address or email has neither key, as Prove's answers do.
    @Test func emptyArraysAreLeftOutOfThePrefill() throws {
        let text = String(decoding: try JSONEncoder().encode(ProveWire.Individual(Individual(firstName: "Milo", lastName: "Pinson"))), as: UTF8.self)
        #expect(try object(text) as NSDictionary == ["firstName": "Milo", "lastName": "Pinson"] as NSDictionary)
    }
}
