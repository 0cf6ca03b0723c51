import Foundation
import Testing
@testable import GatehouseAuth
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The JSON examples of the Datacove guide (seed 000) and the wire contract decode as an app expects.
@Suite struct SeedExampleTests {
    static let sessionsJSON = #"""
    {"data":[
      {"id":"sess_1","deviceName":"Jane's iPhone","platform":"ios","appVersion":"2.4.1","createdAt":"2026-10-01T08:00:00.000Z","lastUsedAt":"2026-10-02T09:30:00.123Z","current":true},
      {"id":"sess_2","deviceName":null,"platform":null,"appVersion":null,"createdAt":"2026-09-30T12:00:00.000Z","lastUsedAt":"2026-09-30T12:00:00.000Z","current":false}
    ]}
    """#

    @Test func tokenPairExampleDecodes() throws {
        let seed = #"""
        {
          "accessToken": "eyJhbGciOiJIUzI1NiIs...",
          "refreshToken": "eyJhbGciOiJIUzI1NiIs...",
          "expiresIn": 1800
        }
        """#
        let pair = try JSONDecoder().decode(TokenPair.self, from: Data(seed.utf8))
        #expect(pair == TokenPair(accessToken: "eyJhbGciOiJIUzI1NiIs...", refreshToken: "eyJhbGciOiJIUzI1NiIs...", expiresIn: 1800))
        #expect(pair.receivedAt == nil && pair.expiresAt == nil)
    }

    @Test func storedPairRoundTripsWithItsReceiveTime() throws {
        let pair = storedPair()
        #expect(try JSONDecoder().decode(TokenPair.self, from: JSONEncoder().encode(pair)) == pair)
        #expect(pair.expiresAt == start.addingTimeInterval(1800))
    }

    @Test func profileExampleDecodes() throws {
        let seed = #"""
        {
          "name": "Jane Doe",
          "phone": "14165550199",
          "country": "CA",
          "timezone": "America/Toronto",
          "status": "ACTIVE",
          "wallet": { "WALLET": 25, "TRIAL": 0, "SUBSCRIPTION": 0 }
        }
        """#
        let profile = try AuthHTTP.decode(Profile.self, from: Data(seed.utf8))
        #expect(profile == Profile(
            name: "Jane Doe", phone: "14165550199", country: "CA", timezone: "America/Toronto", status: "ACTIVE",
            wallet: ["WALLET": 25, "TRIAL": 0, "SUBSCRIPTION": 0]))
    }

    @Test func profileWithNullsDecodes() throws {
        let body = #"{"name":null,"phone":null,"email":"jane@example.com","country":null,"timezone":null,"status":"CREATED","wallet":{"WALLET":0,"TRIAL":0,"SUBSCRIPTION":0}}"#
        let profile = try AuthHTTP.decode(Profile.self, from: Data(body.utf8))
        #expect(profile.email == "jane@example.com" && profile.name == nil && profile.status == "CREATED")
    }

    @Test func sessionsListDecodesWithMillisecondDates() throws {
        let sessions = try AuthHTTP.decode(SessionList.self, from: Data(Self.sessionsJSON.utf8)).data
        #expect(sessions.count == 2)
        #expect(sessions[0].current && !sessions[1].current)
        #expect(sessions[0].lastUsedAt == WireDate.parse("2026-10-02T09:30:00.123Z"))
        #expect(sessions[1].deviceName == nil && sessions[1].platform == nil && sessions[1].appVersion == nil)
    }

    @Test func signedOutEnvelopeFromTheGuide() throws {
        let seed = #"""
        {
          "statusCode": 401,
          "timestamp": "2026-10-02T09:30:00.000Z",
          "path": "/api/auth/v1/refresh",
          "error": {
            "statusCode": 401,
            "error": "Unauthorized",
            "message": "You were signed out because this account signed in on another device.",
            "code": "SESSION_EVICTED"
          }
        }
        """#
        let error = AuthHTTP.apiError(status: 401, data: Data(seed.utf8), response: response(401))
        #expect(error == .api(
            status: 401, code: .sessionEvicted,
            message: "You were signed out because this account signed in on another device.", retryAfter: nil))
    }

    @Test func entitlementEnvelopeWithoutInnerStatusDecodes() throws {
        let seed = #"""
        {
          "statusCode": 403,
          "timestamp": "2026-10-02T09:30:00.000Z",
          "path": "/api/workflows/v1/execute",
          "error": {
            "code": "ENTITLEMENT_INACTIVE",
            "message": "Your trial has ended and no active subscription was found for this service."
          }
        }
        """#
        let error = AuthHTTP.apiError(status: 403, data: Data(seed.utf8), response: response(403))
        #expect(error.status == 403)
        #expect(error.code == "ENTITLEMENT_INACTIVE")
    }

    @Test func envelopeWithoutCodeAndNonJSONErrors() throws {
        let noCode = AuthHTTP.apiError(status: 400, data: Data(errorJSON(400, code: nil).utf8), response: response(400))
        #expect(noCode == .api(status: 400, code: nil, message: "Nope.", retryAfter: nil))
        let html = AuthHTTP.apiError(status: 502, data: Data("<html>Bad Gateway</html>".utf8), response: response(502))
        #expect(html == .api(status: 502, code: nil, message: "HTTP 502", retryAfter: nil))
    }

    private func response(_ status: Int) -> HTTPURLResponse {
        HTTPURLResponse(url: baseURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
    }
}
