import GatehouseVerificationEngine
import GatehouseWire

/// The DIDWW Verification API as Gatehouse serves it: the vendor's paths with the seed's
/// shapes (the `sms.autofill` object, template groups, PUT beside PATCH).
enum VerificationDocument {
    static var document: Document {
        Document(
            name: "verification", title: "Gatehouse verification (DIDWW dialect)",
            description: "Start a code by SMS or voice call, read its status, report the code the user typed. "
                + "Authentication is the OTP application's key and secret (`Basic`), its key alone (`Application <key>`, when the "
                + "application allows public starts) or a signed request (`Application <key>:<signature>` with `x-timestamp`).",
            securitySchemes: [
                "basic": .object(["type": .string("http"), "scheme": .string("basic")]),
                "application": .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("Authorization")]),
            ],
            security: [["basic"], ["application"]],
            error: .ref("ErrorEnvelope"), schemas: schemas, operations: operations)
    }

    static let verificationExample = DIDWWWire.Envelope(data: DIDWWWire.Verification(
        id: "0193a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b", destination: "14155550123", deliveryMethod: "sms", status: "pending", fee: "0.05",
        errorCode: nil, errorDetail: nil, expiresAt: "2026-12-01T10:05:00Z",
        sms: DIDWWWire.SMSDetails(
            template: "Your code is {{CODE}}", language: "en-US", interceptionTimeout: 60, codeLength: 6, templateGroup: "_default",
            templateGroupUsed: true, templateFallbackReason: nil, autofill: DIDWWWire.Autofill(type: "domain", value: "shop.example"))))

    static let schemas: [String: Schema] = [
        "ErrorEnvelope": .object(["errors": .array(.object([
            "code": .oneOf(DIDWWErrorCode.allCases.map(\.rawValue)), "detail": .string,
        ]))]),
        // Like the vendor's API, unknown keys are dropped and a null reads as absent.
        "StartEnvelope": .object(["data": .ref("StartRequest")], open: true),
        "StartRequest": .object([
            "destination": .string.described("E.164 number, with or without +"),
            "delivery_method": .oneOf(VerificationChannel.allCases.filter { $0 != .email }.map(\.rawValue)),
            "sms": Schema.object([
                "languages": .array(.string), "app_hash": .string, "template_group": .string,
                "autofill": .anyOf([
                    .object(["type": .oneOf(["app_hash", "domain", "none"]), "value": .string], optional: ["value"]),
                    .oneOf(["domain", "none"]),
                ]),
            ], optional: ["languages", "app_hash", "template_group", "autofill"]).orNull,
            "callout": Schema.object(["languages": .array(.string), "template_group": .string], optional: ["languages", "template_group"]).orNull,
            "custom": Schema.string.orNull,
        ], optional: ["sms", "callout", "custom"], open: true),
        "ReportEnvelope": .object(["data": .ref("ReportRequest")], open: true),
        "ReportRequest": .object(["code": .string, "delivery_method": .oneOf(["sms", "callout"])], optional: ["delivery_method"], open: true),
        "VerificationEnvelope": .object(["data": .ref("Verification")]),
        "Verification": .object([
            "id": .string, "destination": .string, "delivery_method": .oneOf(VerificationChannel.allCases.map(\.rawValue)),
            "status": .oneOf(VerificationStatus.allCases.map(\.rawValue)),
            "fee": Schema.string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#).orNull,
            "error_code": Schema.string.orNull, "error_detail": Schema.string.orNull, "expires_at": Schema.dateTime.orNull,
            "sms": .object([
                "template": Schema.string.orNull, "language": Schema.string.orNull, "interception_timeout": Schema.integer.orNull,
                "code_length": Schema.integer.orNull, "app_hash": .string, "template_group": Schema.string.orNull,
                "template_group_used": Schema.boolean.orNull, "template_fallback_reason": Schema.string.orNull,
                "autofill": Schema.object(["type": .string, "value": .string]).orNull,
            ], optional: ["app_hash"]),
            "callout": .object([
                "language": Schema.string.orNull, "code_length": Schema.integer.orNull, "template_group": Schema.string.orNull,
                "template_group_used": Schema.boolean.orNull, "template_fallback_reason": Schema.string.orNull,
            ]),
        ], optional: ["sms", "callout"]),
    ]

    static var operations: [Operation] {
        let verification = Schema.ref("VerificationEnvelope")
        let example = Example.wire(verificationExample)
        let report = Content.json(.ref("ReportEnvelope"), example: .wire(DIDWWWire.Envelope(data: DIDWWWire.ReportRequest(deliveryMethod: "sms", code: "246810"))))
        let byID = ["id": "$response.body#/data/id"]
        let byNumber = ["number": "$response.body#/data/destination"]
        let started = [
            Link(name: "status", operationId: "getVerification", parameters: byID),
            Link(name: "report", operationId: "reportVerification", parameters: byID),
            Link(name: "reportWithPatch", operationId: "reportVerificationWithPatch", parameters: byID),
            Link(name: "statusByNumber", operationId: "getVerificationByNumber", parameters: byNumber),
            Link(name: "reportByNumber", operationId: "reportVerificationByNumber", parameters: byNumber),
        ]
        let start = Example.wire(DIDWWWire.Envelope(data: DIDWWWire.StartRequest(
            destination: "+14155550123", deliveryMethod: "sms", sms: DIDWWWire.SMSOptions(languages: ["en-US"], autofill: .init(type: "none")))))
        let endpoints = DIDWWWire.Endpoints.self
        return [
            Operation(endpoints.start.described, body: .json(.ref("StartEnvelope"), example: start),
                replies: [.ok(verification, example, status: 201, "Started", links: started)]),
            Operation(endpoints.status.described,
                replies: [.ok(verification, example, links: [Link(name: "report", operationId: endpoints.report.id, parameters: byID)])]),
            Operation(endpoints.report.described,
                body: report, replies: [.ok(verification, example, links: [Link(name: "status", operationId: endpoints.status.id, parameters: byID)])]),
            Operation(endpoints.reportWithPatch.described, body: report, replies: [.ok(verification, example)]),
            Operation(endpoints.statusByNumber.described, replies: [.ok(verification, example)]),
            Operation(endpoints.reportByNumber.described, body: report, replies: [.ok(verification, example)]),
            Operation(endpoints.reportByNumberWithPatch.described, body: report, replies: [.ok(verification, example)]),
        ]
    }
}
