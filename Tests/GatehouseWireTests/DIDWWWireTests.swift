import Foundation
import GatehouseWire
import Testing

/// The DIDWW wire types against the literal JSON of seed 001 and of
/// `specs/didww-verification-openapi.json` (its request-body examples verbatim; its replies and
/// errors assembled from the per-property examples verbatim), and the reply the server builds.
@Suite struct DIDWWWireTests {
    typealias Start = DIDWWWire.Envelope<DIDWWWire.StartRequest>
    typealias Report = DIDWWWire.Envelope<DIDWWWire.ReportRequest>
    typealias Reply = DIDWWWire.Envelope<DIDWWWire.Verification>

    static func decode<Wire: Decodable>(_ type: Wire.Type, _ literal: String) throws -> Wire {
        try JSONDecoder().decode(Wire.self, from: Data(literal.utf8))
    }

    static func encodes(_ value: some Encodable, as literal: String) throws -> Bool {
        try WireContract.parsed(JSONEncoder().encode(value)) == WireContract.parsed(Data(literal.utf8))
    }

    // MARK: Requests

    @Test func seedSMSStartWithLanguages() throws {
        let literal = #"""
            {
              "data": {
                "destination": "+4915112345678",
                "delivery_method": "sms",
                "sms": {
                  "languages": ["de-DE"]
                }
              }
            }
            """#
        let start = try WireContract.roundTrip(Start.self, literal).data
        #expect(start.destination.value == "+4915112345678" && start.deliveryMethod.value == "sms")
        #expect(start.sms.value?.languages.value == ["de-DE"])
        #expect(start.sms.value?.autofill == .missing && start.sms.value?.templateGroup == .missing)
        #expect(start.callout == .missing && start.custom == .missing)
        // What the SDK builds for `sms: .init(languages: ["de-DE"])` is that document.
        let built = DIDWWWire.StartRequest(destination: "+4915112345678", deliveryMethod: "sms", sms: .init(languages: ["de-DE"]))
        #expect(built == start)
        #expect(try Self.encodes(Start(data: built), as: literal))
    }

    @Test func seedCalloutStartWithLanguages() throws {
        let literal = #"""
            {
              "data": {
                "destination": "+5511987654321",
                "delivery_method": "callout",
                "callout": {
                  "languages": ["pt-BR", "pt-PT"]
                }
              }
            }
            """#
        let start = try WireContract.roundTrip(Start.self, literal).data
        #expect(start.destination.value == "+5511987654321" && start.deliveryMethod.value == "callout")
        #expect(start.callout.value?.languages.value == ["pt-BR", "pt-PT"] && start.callout.value?.templateGroup == .missing)
        #expect(start.sms == .missing && start.custom == .missing)
        let built = DIDWWWire.StartRequest(
            destination: "+5511987654321", deliveryMethod: "callout", callout: .init(languages: ["pt-BR", "pt-PT"]))
        #expect(try Self.encodes(Start(data: built), as: literal))
    }

    @Test func openAPISMSStartExampleWithAppHash() throws {
        let start = try WireContract.roundTrip(Start.self, #"""
            {"data":{"destination":"+4915112345678","delivery_method":"sms","sms":{"languages":["de-DE","en-US"],"app_hash":"A1b2C3d4E5f"}}}
            """#).data
        #expect(start.destination.value == "+4915112345678" && start.deliveryMethod.value == "sms")
        let sms = try #require(start.sms.value)
        #expect(sms.languages.value == ["de-DE", "en-US"] && sms.appHash.value == "A1b2C3d4E5f")
        #expect(sms.autofill == .missing && sms.templateGroup == .missing)
    }

    @Test func openAPICalloutStartExample() throws {
        let start = try WireContract.roundTrip(Start.self, #"""
            {"data":{"destination":"+4915112345678","delivery_method":"callout","callout":{"languages":["pt-BR","pt-PT"]}}}
            """#).data
        #expect(start.deliveryMethod.value == "callout" && start.callout.value?.languages.value == ["pt-BR", "pt-PT"])
        #expect(start.sms == .missing)
    }

    @Test func startWithEveryOptionTheSDKSends() throws {
        let literal = #"""
            {"data":{"destination":"+4915112345678","delivery_method":"sms",
             "sms":{"languages":["de-DE"],"autofill":{"type":"domain"},"template_group":"checkout"},"custom":"signup-flow-b"}}
            """#
        let start = try WireContract.roundTrip(Start.self, literal).data
        #expect(start.sms.value?.autofill.value == DIDWWWire.AutofillRequest(type: "domain"))
        #expect(start.sms.value?.templateGroup.value == "checkout" && start.custom.value == "signup-flow-b")
        let built = DIDWWWire.StartRequest(
            destination: "+4915112345678", deliveryMethod: "sms",
            sms: .init(languages: ["de-DE"], autofill: .init(type: "domain"), templateGroup: "checkout"), custom: "signup-flow-b")
        #expect(try Self.encodes(Start(data: built), as: literal))
        // Nothing set: only the two required keys; an empty options block is `{}`.
        #expect(try Self.encodes(
            Start(data: .init(destination: "+1", deliveryMethod: "callout", callout: .init())),
            as: #"{"data":{"destination":"+1","delivery_method":"callout","callout":{}}}"#))
        #expect(try Self.encodes(
            Start(data: .init(destination: "+1", deliveryMethod: "sms", sms: .init(autofill: .init(type: "none")))),
            as: #"{"data":{"destination":"+1","delivery_method":"sms","sms":{"autofill":{"type":"none"}}}}"#))
    }

    @Test func olderStringAutofillAndFieldsOfTheWrongType() throws {
        let start = try Self.decode(Start.self, #"""
            {"data":{"destination":15551234567,"delivery_method":"sms","sms":{"autofill":"domain","languages":"de-DE"},"custom":null,"extra":1}}
            """#).data
        #expect(start.destination.isInvalid && start.deliveryMethod.value == "sms" && start.custom == .missing)
        #expect(start.sms.value?.autofill.value == DIDWWWire.AutofillRequest(type: "domain"))
        #expect(start.sms.value?.languages.isInvalid == true)
        // An autofill object without a string type fails that field only.
        let untyped = try Self.decode(Start.self, #"{"data":{"destination":"+1","delivery_method":"sms","sms":{"autofill":{"value":"x"}}}}"#)
        #expect(untyped.data.sms.value?.autofill.isInvalid == true)
    }

    @Test func openAPIReportExample() throws {
        // `ReportVerificationRequest.properties.data.properties.{delivery_method,code}.example`.
        let literal = #"{"data":{"delivery_method":"sms","code":"123456"}}"#
        let report = try WireContract.roundTrip(Report.self, literal).data
        #expect(report == DIDWWWire.ReportRequest(deliveryMethod: "sms", code: "123456"))
        #expect(try Self.encodes(Report(data: .init(deliveryMethod: "sms", code: "123456")), as: literal))
        let odd = try Self.decode(Report.self, #"{"data":{"code":123456}}"#).data
        #expect(odd.code.isInvalid && odd.deliveryMethod == .missing)
    }

    // MARK: Replies

    @Test func openAPISMSReplyExample() throws {
        let reply = try Self.decode(Reply.self, #"""
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"sms",
            "fee":"0.06","status":"pending","error_code":null,"error_detail":null,"expires_at":"2026-08-27T13:19:20Z",
            "sms":{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,"code_length":6,
            "app_hash":"A1b2C3d4E5f"}}}
            """#).data
        #expect(reply.id == "01a0435e-2b71-7762-b0c2-22fabc5ed19c" && reply.destination == "4915112345678")
        #expect(reply.deliveryMethod == "sms" && reply.status == "pending" && reply.fee == "0.06")
        #expect(reply.errorCode == nil && reply.errorDetail == nil && reply.expiresAt == "2026-08-27T13:19:20Z")
        #expect(reply.callout == nil)
        #expect(reply.sms == DIDWWWire.SMSDetails(
            template: "Your code is {{CODE}}", language: "de-DE", interceptionTimeout: 300, codeLength: 6, appHash: "A1b2C3d4E5f",
            templateGroup: nil, templateGroupUsed: nil, templateFallbackReason: nil, autofill: nil))
    }

    @Test func openAPICalloutReplyExample() throws {
        let reply = try Self.decode(Reply.self, #"""
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"callout",
            "fee":"0.06","status":"failed","error_code":"too_many_attempts","error_detail":"too many attempts",
            "expires_at":"2026-08-27T13:19:20Z","callout":{"language":"pt-BR","code_length":6}}}
            """#).data
        #expect(reply.deliveryMethod == "callout" && reply.status == "failed")
        #expect(reply.errorCode == "too_many_attempts" && reply.errorDetail == "too many attempts")
        #expect(reply.sms == nil)
        #expect(reply.callout == DIDWWWire.CalloutDetails(
            language: "pt-BR", codeLength: 6, templateGroup: nil, templateGroupUsed: nil, templateFallbackReason: nil))
    }

    /// What `VerificationJSON.envelope` builds for a pending SMS verification with an Android hash.
    static let serverSMSReply = DIDWWWire.Verification(
        id: "01a0435e-2b71-7762-b0c2-22fabc5ed19c", destination: "4915112345678", deliveryMethod: "sms", status: "pending",
        fee: "0.06", errorCode: nil, errorDetail: nil, expiresAt: "2026-08-27T13:19:20Z",
        sms: DIDWWWire.SMSDetails(
            template: "Your code is {{CODE}}", language: "de-DE", interceptionTimeout: 300, codeLength: 6, appHash: "A1b2C3d4E5f",
            templateGroup: nil, templateGroupUsed: false, templateFallbackReason: nil,
            autofill: DIDWWWire.Autofill(type: "app_hash", value: "A1b2C3d4E5f")))

    @Test func serverSMSReplyCarriesEveryKeyNullsIncluded() throws {
        let literal = #"""
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"sms",
             "fee":"0.06","status":"pending","error_code":null,"error_detail":null,"expires_at":"2026-08-27T13:19:20Z",
             "sms":{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,"code_length":6,
                    "app_hash":"A1b2C3d4E5f","template_group":null,"template_group_used":false,"template_fallback_reason":null,
                    "autofill":{"type":"app_hash","value":"A1b2C3d4E5f"}}}}
            """#
        #expect(try Self.encodes(Reply(data: Self.serverSMSReply), as: literal))
        #expect(try WireContract.roundTrip(Reply.self, literal).data == Self.serverSMSReply)
    }

    @Test func serverSMSReplyWithoutAutofillWritesNullAndNoAppHash() throws {
        var verification = Self.serverSMSReply
        verification.sms?.appHash = nil
        verification.sms?.autofill = nil
        verification.sms?.templateGroup = "checkout"
        verification.sms?.templateFallbackReason = "language_missing"
        let literal = #"""
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"sms",
             "fee":"0.06","status":"pending","error_code":null,"error_detail":null,"expires_at":"2026-08-27T13:19:20Z",
             "sms":{"template":"Your code is {{CODE}}","language":"de-DE","interception_timeout":300,"code_length":6,
                    "template_group":"checkout","template_group_used":false,"template_fallback_reason":"language_missing",
                    "autofill":null}}}
            """#
        #expect(try Self.encodes(Reply(data: verification), as: literal))
        #expect(try WireContract.roundTrip(Reply.self, literal).data == verification)
    }

    @Test func serverCalloutReplyCarriesEveryKeyNullsIncluded() throws {
        let verification = DIDWWWire.Verification(
            id: "01a0435e-2b71-7762-b0c2-22fabc5ed19c", destination: "4915112345678", deliveryMethod: "callout", status: "failed",
            fee: "0.06", errorCode: "too_many_attempts", errorDetail: "too many attempts", expiresAt: "2026-08-27T13:19:20Z",
            callout: DIDWWWire.CalloutDetails(
                language: "pt-BR", codeLength: 6, templateGroup: "checkout", templateGroupUsed: true, templateFallbackReason: nil))
        let literal = #"""
            {"data":{"id":"01a0435e-2b71-7762-b0c2-22fabc5ed19c","destination":"4915112345678","delivery_method":"callout",
             "fee":"0.06","status":"failed","error_code":"too_many_attempts","error_detail":"too many attempts",
             "expires_at":"2026-08-27T13:19:20Z",
             "callout":{"language":"pt-BR","code_length":6,"template_group":"checkout","template_group_used":true,
                        "template_fallback_reason":null}}}
            """#
        #expect(try Self.encodes(Reply(data: verification), as: literal))
        #expect(try WireContract.roundTrip(Reply.self, literal).data == verification)
    }

    @Test func replyReadsLeniently() throws {
        // A fee as a JSON number keeps its decimal text; unknown keys, odd blocks and keys of the wrong type read as absent.
        let reply = try Self.decode(Reply.self, #"""
            {"data":{"id":"i","destination":"1","delivery_method":"sms","status":"pending","fee":0.06,"expires_at":17,"extra":true,
             "sms":{"code_length":"6","template_group_used":"yes","autofill":{"type":"domain"},"language":"de-DE"},"callout":"x"}}
            """#).data
        #expect(reply.fee == "0.06" && reply.expiresAt == nil && reply.callout == nil)
        #expect(reply.sms?.language == "de-DE" && reply.sms?.codeLength == nil && reply.sms?.templateGroupUsed == nil)
        #expect(reply.sms?.autofill == nil)
        // Only the four required keys: everything else is nil.
        let bare = try Self.decode(Reply.self, #"{"data":{"id":"i","destination":"1","delivery_method":"sms","status":"pending"}}"#).data
        #expect(bare.fee == nil && bare.errorCode == nil && bare.expiresAt == nil && bare.sms == nil && bare.callout == nil)
        for broken in [
            #"{"data":{"destination":"1","delivery_method":"sms","status":"pending"}}"#,
            #"{"data":{"id":"i","destination":"1","delivery_method":"sms","status":"pending","fee":"0.05abc"}}"#,
            #"{"data":{"id":"i","destination":"1","delivery_method":"sms","status":"pending","fee":true}}"#,
            #"{"data":{"id":"i","destination":"1","delivery_method":"sms","status":"pending","error_code":7}}"#,
        ] {
            #expect(throws: DecodingError.self, "\(broken)") { try Self.decode(Reply.self, broken) }
        }
    }

    // MARK: Errors

    @Test func openAPIErrorExample() throws {
        // `ErrorCode.example` with `Error.properties.detail.example`.
        let envelope = try WireContract.roundTrip(
            DIDWWWire.ErrorEnvelope.self, #"{"errors":[{"code":"delivery_method_invalid","detail":"delivery method is invalid"}]}"#)
        #expect(envelope.errors == [DIDWWWire.ErrorItem(code: "delivery_method_invalid", detail: "delivery method is invalid")])
    }

    @Test func errorElementsWithoutAStringCodeAreSkipped() throws {
        let envelope = try Self.decode(DIDWWWire.ErrorEnvelope.self, #"""
            {"errors":[{"code":7,"detail":"x"},"destination_blank",{"code":"destination_blank"},null,
                       {"code":"code_invalid","detail":5,"source":{}},{"code":"not_found","detail":"not found"}]}
            """#)
        #expect(envelope.errors == [
            DIDWWWire.ErrorItem(code: "destination_blank", detail: ""), DIDWWWire.ErrorItem(code: "code_invalid", detail: ""),
            DIDWWWire.ErrorItem(code: "not_found", detail: "not found"),
        ])
        #expect(throws: DecodingError.self) { try Self.decode(DIDWWWire.ErrorEnvelope.self, #"{"errors":"code_invalid"}"#) }
    }
}
