import Foundation
import GatehouseWire
import Testing

/// Prove's v3 Pre-Fill models (notes §1.2) key by key against JSON literals written from
/// Prove's published models, and the device API's bodies.
struct ProveWireTests {
    @Test func tokenResponseUsesOAuthsSnakeCaseKeys() throws {
        let token = try WireContract.roundTrip(ProveWire.TokenResponse.self, #"{"access_token":"ghpt_x.y","token_type":"Bearer","expires_in":3600}"#)
        #expect(token == ProveWire.TokenResponse(accessToken: "ghpt_x.y", expiresIn: 3600))
        let full = try JSONDecoder().decode(
            ProveWire.TokenResponse.self,
            from: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":3600,"refresh_token":"r","refresh_expires_in":7200}"#.utf8))
        #expect(full.refreshToken == "r" && full.refreshExpiresIn == 7200)
    }

    @Test func startRequestAndResponse() throws {
        let request = try WireContract.roundTrip(ProveWire.StartRequest.self, """
            {"flowType":"desktop","phoneNumber":"2001001695","finalTargetUrl":"https://www.example.com/landing",
             "ssn":"565228370","dob":"1984-06-05","emailAddress":"mpinsonm@dyndns.org","ipAddress":"10.0.0.1",
             "smsMessage":"#### is your temporary code to continue your application.","allowOTPRetry":true}
            """)
        #expect(request.flowType == "desktop" && request.allowOTPRetry == true && request.smsMessage?.hasPrefix("####") == true)
        #expect(Set(ProveWire.StartRequest.CodingKeys.allCases.map(\.stringValue)) == [
            "flowType", "phoneNumber", "finalTargetUrl", "ssn", "dob", "emailAddress", "ipAddress", "smsMessage", "allowOTPRetry",
        ])
        let response = try WireContract.roundTrip(ProveWire.StartResponse.self, """
            {"authToken":"eyJhbGciOi.e30.sig","correlationId":"713189b8-5555-4b08-83ba-75d08780aebd","next":{"v3-validate":"/v3/validate"}}
            """)
        #expect(response.next == ProveWire.Step.validate.next)
    }

    @Test func validateRequestAndResponse() throws {
        try WireContract.roundTrip(ProveWire.ValidateRequest.self, #"{"correlationId":"713189b8-5555-4b08-83ba-75d08780aebd"}"#)
        let response = try WireContract.roundTrip(ProveWire.ValidateResponse.self, """
            {"success":true,"challengeMissing":true,"phoneNumber":"2001001686","next":{"v3-challenge":"/v3/challenge"}}
            """)
        #expect(response.success && response.challengeMissing && response.phoneNumber == "2001001686")
        let failed = try WireContract.roundTrip(ProveWire.ValidateResponse.self, #"{"success":false,"challengeMissing":false,"next":{"done":"done"}}"#)
        #expect(failed.next == ["done": "done"] && failed.phoneNumber == nil)
    }

    @Test func challengeRequestAndResponseWithTheIndividual() throws {
        try WireContract.roundTrip(ProveWire.ChallengeRequest.self, #"{"correlationId":"c-1","dob":"1984-06-05","ssn":"8370"}"#)
        let response = try WireContract.roundTrip(ProveWire.ChallengeResponse.self, """
            {"success":true,"next":{"v3-complete":"/v3/complete"},
             "individual":{"firstName":"Tod","lastName":"Weedall",
               "addresses":[{"address":"39 South Trail","extendedAddress":"Apt 23","city":"San Antonio","region":"TX","postalCode":"78285"}],
               "emailAddresses":["tweedalld@ehow.com"],"dob":"1984-06-05","ssn":"8370"}}
            """)
        let person = try #require(response.individual)
        #expect(person.addresses?.first == ProveWire.Address(address: "39 South Trail", extendedAddress: "Apt 23", city: "San Antonio", region: "TX", postalCode: "78285"))
        #expect(Set(ProveWire.Individual.CodingKeys.allCases.map(\.stringValue)) == ["firstName", "lastName", "addresses", "emailAddresses", "dob", "ssn"])
        #expect(Set(ProveWire.Address.CodingKeys.allCases.map(\.stringValue)) == ["address", "extendedAddress", "city", "region", "postalCode"])
        try WireContract.roundTrip(ProveWire.ChallengeResponse.self, #"{"success":false,"next":{"v3-challenge":"/v3/challenge"}}"#)
    }

    @Test func completeRequestAndResponseWithPerFieldResults() throws {
        try WireContract.roundTrip(ProveWire.CompleteRequest.self, """
            {"correlationId":"c-1","individual":{"firstName":"Tod","lastName":"Weedall","addresses":[{"address":"39 South Trail","city":"San Antonio","region":"TX","postalCode":"78285"}],"emailAddresses":["tweedalld@ehow.com"],"dob":"06-05","ssn":"8370"}}
            """)
        let response = try WireContract.roundTrip(ProveWire.CompleteResponse.self, """
            {"success":false,"next":{"done":"done"},"changeDetected":true,
             "idv":{"multiCIPConfidence":"medium","dataSource1":{
               "name":{"firstName":100,"lastName":100,"nameScore":100},
               "address":{"street":false,"city":true,"region":true,"postalCode":true,"addressScore":75},
               "email":{"emailAddress":true},
               "identifiers":{"dob":true,"last4":true},
               "cipConfidence":"medium","reasonCodes":["ADDRESS_MISMATCH"]}}}
            """)
        #expect(response.idv?.dataSource1.address?.addressScore == 75 && response.idv?.dataSource1.identifiers.ssn == nil)
    }

    /// Prove's models make every one of these optional, and its answers leave out what is empty
    /// or was not compared (the Go models are `omitempty` throughout).
    @Test func whatProvesModelsLeaveOut() throws {
        // The Go SDK README's Start: a desktop flow with no phone number.
        let start = try WireContract.roundTrip(ProveWire.StartRequest.self, #"{"flowType":"desktop","finalTargetUrl":"https://www.example.com"}"#)
        #expect(start.phoneNumber == nil)
        // Complete with the SSN alone, and an address without its optional extendedAddress.
        let ssnOnly = try WireContract.roundTrip(ProveWire.CompleteRequest.self, #"{"correlationId":"c-1","individual":{"ssn":"847350596"}}"#)
        #expect(ssnOnly.individual?.firstName == nil && ssnOnly.individual?.addresses == nil)
        let verified = try WireContract.roundTrip(ProveWire.CompleteResponse.self, """
            {"success":true,"next":{"done":"done"},
             "idv":{"multiCIPConfidence":"high","dataSource1":{
               "address":{"street":true,"city":true,"addressScore":100},
               "identifiers":{"ssn":true},"cipConfidence":"high"}}}
            """)
        let source = try #require(verified.idv?.dataSource1)
        #expect(source.name == nil && source.reasonCodes == nil && source.address?.region == nil && source.address?.postalCode == nil)
        try WireContract.roundTrip(ProveWire.CompleteResponse.self, """
            {"success":false,"next":{"done":"done"},"idv":{"multiCIPConfidence":"low","dataSource1":{
              "name":{"firstName":40,"nameScore":40},"identifiers":{"last4":true},"cipConfidence":"low","reasonCodes":["NAME_MISMATCH"]}}}
            """)
        // A pre-fill with no address or email on record.
        let bare = try WireContract.roundTrip(
            ProveWire.ChallengeResponse.self, #"{"success":true,"individual":{"firstName":"Milo","lastName":"Pinson"},"next":{"v3-complete":"/v3/complete"}}"#)
        #expect(bare.individual?.addresses == nil && bare.individual?.emailAddresses == nil)
    }

    @Test func errorBodyIsProvesCodeAndMessage() throws {
        try WireContract.roundTrip(ProveWire.ErrorBody.self, #"{"code":1003,"message":"step not allowed"}"#)
        try WireContract.roundTrip(ProveWire.ErrorBody.self, #"{"code":1001,"message":"field 'flowType' is missing"}"#)
        try WireContract.roundTrip(ProveWire.ErrorBody.self, #"{"code":8008,"message":"invalid correlation ID"}"#)
        #expect(PossessionWire.ErrorCode.stepNotAllowed.rawValue == 1003 && PossessionWire.ErrorCode.fieldMissing.rawValue == 1001)
        #expect(PossessionWire.ErrorCode.correlationIdInvalid.rawValue == 8008, "Prove's error table: 8008 Invalid Correlation ID")
    }

    @Test func theDeviceAPIsBodies() throws {
        try WireContract.roundTrip(PossessionWire.BeginRequest.self, #"{"testMode":true,"sdkVersion":"6.4.0"}"#)
        let session = try WireContract.roundTrip(PossessionWire.Session.self, """
            {"deviceToken":"ghpd_x.y","authId":"a-1","testMode":false,
             "step":{"next":"carrier_check","carrierCheck":{"provider":"camara","url":"https://op.example/authorize?state=s","redirectUri":"https://gh.example/back"}}}
            """)
        #expect(session.step.next == .carrierCheck)
        try WireContract.roundTrip(PossessionWire.Step.self, #"{"next":"otp_start","phoneNumberNeeded":true}"#)
        try WireContract.roundTrip(PossessionWire.Step.self, #"{"next":"otp_finish","otpLength":6}"#)
        try WireContract.roundTrip(PossessionWire.Step.self, #"{"next":"done","authId":"a-1"}"#)
        try WireContract.roundTrip(PossessionWire.CarrierEvidence.self, #"{"provider":"camara","code":"c","state":"s"}"#)
        try WireContract.roundTrip(PossessionWire.OTPStartRequest.self, #"{"phoneNumber":"+12025550123"}"#)
        try WireContract.roundTrip(PossessionWire.OTPFinishRequest.self, #"{"otp":"1234"}"#)
    }
}
