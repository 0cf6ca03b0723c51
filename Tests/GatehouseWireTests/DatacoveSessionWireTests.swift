import Foundation
import GatehouseWire
import Testing

/// The Datacove sign-in, session, profile and store-setup types against seed 000's literal
/// JSON, and against what the server writes where the seed leaves keys out.
@Suite struct DatacoveSessionWireTests {
    @Test func tokenPairOfTheSignInSection() throws {
        let pair = try WireContract.roundTrip(DatacoveWire.TokenPair.self, #"""
            {
              "accessToken": "eyJhbGciOiJIUzI1NiIs...",
              "refreshToken": "eyJhbGciOiJIUzI1NiIs...",
              "expiresIn": 1800
            }
            """#)
        #expect(pair.expiresIn == 1800)
    }

    /// The seed leaves out the `email` of a phone account; the server writes it as `null`.
    @Test func profileOfTheActivateSection() throws {
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
        let profile = try JSONDecoder().decode(DatacoveWire.Profile.self, from: Data(seed.utf8))
        #expect(profile.name == "Jane Doe" && profile.email == nil && profile.wallet["WALLET"] == 25 && profile.status == "ACTIVE")
        try WireContract.roundTrip(DatacoveWire.Profile.self, #"""
            {"name":"Jane Doe","phone":"14165550199","email":null,"country":"CA","timezone":"America/Toronto","status":"ACTIVE",
             "wallet":{"WALLET":25,"TRIAL":0,"SUBSCRIPTION":0}}
            """#)
    }

    @Test func sessionsAsTheServerSendsThem() throws {
        let sessions = try WireContract.roundTrip(DatacoveWire.Sessions.self, #"""
            {"data":[{"id":"s1","deviceName":"iPhone","platform":"IOS","appVersion":"2.1.0","createdAt":"2026-10-02T09:30:00.000Z",
                      "lastUsedAt":"2026-10-02T09:31:00.000Z","current":true},
                     {"id":"s2","deviceName":null,"platform":null,"appVersion":null,"createdAt":"2026-10-01T09:30:00.000Z",
                      "lastUsedAt":"2026-10-01T09:30:00.000Z","current":false}]}
            """#)
        #expect(sessions.data.map(\.current) == [true, false] && sessions.data[1].deviceName == nil)
    }

    @Test func successOfRequestOTP() throws {
        #expect(try WireContract.roundTrip(DatacoveWire.Success.self, #"{"success":true}"#).success)
    }

    @Test func storeSetupAnswers() throws {
        try WireContract.roundTrip(DatacoveWire.AppleConfig.self, #"""
            {"bundleId":"com.example.app","issuerId":null,"keyId":null,"appAppleId":1234567890,"hasPrivateKey":false,"production":false,
             "extraTrustedRootPEM":null,"xcodeCertificatePEM":null,"claimUntaggedPurchases":true}
            """#)
        try WireContract.roundTrip(DatacoveWire.PricingConfig.self, #"""
            {"provider":"apple","iapCreditPackages":[{"platformProductId":"com.example.app.credits500","credits":500,"displayName":null}]}
            """#)
        try WireContract.roundTrip(DatacoveWire.StorePlans.self, #"""
            {"data":[{"productId":"p1","displayName":"1 Year Protection","interval":"annual",
                      "platformProductIds":{"apple":"com.example.app.yearly"},"gatedWorkflowId":"wf-sec-001"}]}
            """#)
        try WireContract.roundTrip(DatacoveWire.TrialConfig.self, #"{"ios":{"enabled":true,"durationDays":7}}"#)
    }

    /// The sign-in bodies the server reads by the types' keys, as seed 000 shows them.
    @Test func signInBodies() throws {
        let phone = try WireContract.roundTrip(DatacoveWire.PhoneCodeCheck.self, #"{"phoneNumber":"+14165550199","channel":"sms","otp":"123456"}"#)
        #expect(phone.otp == "123456")
        try WireContract.roundTrip(DatacoveWire.PhoneCodeRequest.self, #"{"phoneNumber":"+14165550199","channel":"sms"}"#)
        try WireContract.roundTrip(DatacoveWire.EmailCodeCheck.self, #"{"email":"jane@example.com","otp":"123456"}"#)
        try WireContract.roundTrip(DatacoveWire.RefreshRequest.self, #"{"refreshToken":"eyJhbGciOiJIUzI1NiIs..."}"#)
        try WireContract.roundTrip(DatacoveWire.ProfileUpdate.self, #"{"name":"Jane Doe","timezone":"America/Toronto"}"#)
    }
}
