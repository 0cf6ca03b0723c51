import Foundation
import GatehouseClientCore
import GatehousePossession
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// The CAMARA Number Verification provider against a local operator built on Authlib (a real
/// OAuth 2.0 server in a child process): only "cellular" connections pass `prompt=none`, so
/// the device's line is proved without a code; on Wi-Fi the flow falls to the code.
@Suite(.serialized) struct PossessionCarrierTests {
    @Test(arguments: TestDatabaseKind.available)
    func aCellularCheckProvesTheLineAndWiFiFallsToTheCode(_ kind: TestDatabaseKind) async throws {
        let number = PossessionFixture.productionNumber
        let operatorServer = try await CamaraOperator.start(msisdn: number)
        let f = try await PossessionFixture.start(kind)
        do {
            try await f.makeProduction(
                carrier: .init(
                    authorizationEndpoint: operatorServer.authorizationEndpoint.absoluteString, tokenEndpoint: operatorServer.tokenEndpoint.absoluteString,
                    apiBase: operatorServer.baseURL.absoluteString, clientId: operatorServer.clientID, redirectUri: operatorServer.redirectURI,
                    development: true),
                carrierSecret: operatorServer.clientSecret)

            let cellular = RedirectFollowingCarrierCheck(headers: ["X-Test-Network": "cellular"])
            let token = try await f.app.initialize(.init(phoneNumber: number, flowType: "mobile", dob: "1981-04-09"))
            let steps = ScriptedSteps()
            let authId = try await f.sdk(testMode: false, steps: steps, carrierCheck: cellular).authenticate(token)
            #expect(steps.authFinished == [authId])
            #expect(steps.starts.isEmpty, "a proved line needs no code")
            let verified = try await f.app.verify(.init(authId: authId))
            #expect(verified["firstName"] as? String == "Mary")
            let log = try await operatorServer.log()
            let authorize = try #require(log.first { $0.path == "/authorize" })
            #expect(authorize.prompt == "none" && authorize.scope == CamaraOperator.scope && authorize.loginHint == "tel:" + number)
            #expect(log.contains { $0.path == "/token" && $0.clientAuth == "client_secret_basic" })
            let verify = try #require(log.first { $0.path.hasSuffix("/verify") })
            #expect(verify.body?["phoneNumber"] == nil && verify.body?["hashedPhoneNumber"]?.count == 64, "the number goes hashed")

            // Another line's device proves nothing: the operator says not verified, and the code follows.
            let other = try await f.app.initialize(.init(phoneNumber: "+14165550173", flowType: "mobile"))
            let otherSteps = ScriptedSteps(start: [.confirm], finish: [.code { try await f.code(for: "+14165550173") }])
            let otherID = try await f.sdk(testMode: false, steps: otherSteps, carrierCheck: cellular).authenticate(other)
            #expect(otherSteps.starts.map(\.needed) == [false] && otherSteps.authFinished == [otherID])

            let wifi = RedirectFollowingCarrierCheck(headers: ["X-Test-Network": "wifi"])
            let late = try await f.app.initialize(.init(phoneNumber: number, flowType: "mobile"))
            let wifiSteps = ScriptedSteps(start: [.confirm], finish: [.code { try await f.code(for: number) }])
            let wifiID = try await f.sdk(testMode: false, steps: wifiSteps, carrierCheck: wifi).authenticate(late)
            #expect(wifiSteps.starts.count == 1 && wifiSteps.authFinished == [wifiID])
            #expect(try await operatorServer.log().contains { $0.path == "/authorize" && !$0.cellular && $0.location?.contains("login_required") == true })
        } catch { Issue.record(error) }
        await f.stop()
        await operatorServer.shutdown()
    }
}
