import GatehouseHTTP
import GatehouseWire

/// Prove's v3 API (`/token`, `/v3/*`) for the app's backend, and the device API the SDK
/// calls with the `authToken` and then its `deviceToken`.
enum PossessionDocument {
    static var document: Document {
        Document(
            name: "possession", title: "Gatehouse possession checks (Prove dialect)",
            description: "The backend gets an access token (`POST /token`, client credentials), then starts, validates, challenges and "
                + "completes a flow; each answer's `next` names the step the client may call next. The device begins with the flow's "
                + "`authToken` as its bearer token and goes on with the `deviceToken` it gets back. Errors are `{\"code\": <number>, "
                + "\"message\"}`.",
            securitySchemes: [
                "clientBasic": .object(["type": .string("http"), "scheme": .string("basic"), "description": .string("client_id:client_secret")]),
                "accessToken": .object(["type": .string("http"), "scheme": .string("bearer"), "description": .string("from POST /token")]),
                "deviceToken": .object([
                    "type": .string("http"), "scheme": .string("bearer"),
                    "description": .string("the flow's authToken for begin, the deviceToken after"),
                ]),
            ],
            security: [["accessToken"]], error: .ref("Error"), schemas: schemas, operations: prove + device)
    }

    static let next = Schema.map(.string).described("The step allowed next, by name, with its path (`{\"v3-validate\": \"/v3/validate\"}`)")
    /// `ProveWire.Address`, which the admin API's identities use too.
    static let address = Schema.object(
        ["address": .string, "extendedAddress": .string, "city": .string, "region": .string, "postalCode": .string],
        optional: ["address", "extendedAddress", "city", "region", "postalCode"])
    static let individual = Schema.object([
        "firstName": .string, "lastName": .string, "addresses": .array(.ref("Address")), "emailAddresses": .array(.string),
        "dob": .string, "ssn": .string,
    ], optional: ["firstName", "lastName", "addresses", "emailAddresses", "dob", "ssn"])

    static let schemas: [String: Schema] = [
        "Error": .object(["code": .integer(minimum: 1000), "message": .string]),
        "TokenForm": .object(["grant_type": .oneOf(["client_credentials"]), "client_id": .string, "client_secret": .string],
            optional: ["client_id", "client_secret"]).described("client_id and client_secret here, or as HTTP Basic, not both"),
        "TokenResponse": .object([
            "access_token": .string, "token_type": .string, "expires_in": .integer, "refresh_token": .string, "refresh_expires_in": .integer,
        ], optional: ["refresh_token", "refresh_expires_in"]),
        "Address": address,
        "Individual": individual,
        "StartRequest": .object([
            "flowType": .oneOf(["mobile", "desktop"]), "phoneNumber": .string, "finalTargetUrl": .string, "ssn": .string, "dob": .string,
            "emailAddress": .string, "ipAddress": .string, "smsMessage": .string, "allowOTPRetry": .boolean,
        ], optional: ["phoneNumber", "finalTargetUrl", "ssn", "dob", "emailAddress", "ipAddress", "smsMessage", "allowOTPRetry"]),
        "StartResponse": .object(["authToken": .string, "correlationId": .string, "next": next]),
        "ValidateRequest": .object(["correlationId": .string]),
        "ValidateResponse": .object(["success": .boolean, "challengeMissing": .boolean, "phoneNumber": .string, "next": next], optional: ["phoneNumber"]),
        "ChallengeRequest": .object(["correlationId": .string, "dob": .string, "ssn": .string], optional: ["dob", "ssn"]),
        "ChallengeResponse": .object(["success": .boolean, "individual": .ref("Individual"), "next": next], optional: ["individual"]),
        "CompleteRequest": .object(["correlationId": .string, "individual": .ref("Individual")], optional: ["individual"]),
        "CompleteResponse": .object([
            "success": .boolean, "next": next, "changeDetected": .boolean,
            "idv": .object([
                // What was not submitted is not compared and left out, as is an empty reasonCodes.
                "dataSource1": .object([
                    "name": .object(["firstName": .integer, "lastName": .integer, "nameScore": .integer], optional: ["firstName", "lastName"]),
                    "address": .object(
                        ["street": .boolean, "city": .boolean, "region": .boolean, "postalCode": .boolean, "addressScore": .integer],
                        optional: ["street", "city", "region", "postalCode"]),
                    "email": .object(["emailAddress": .boolean]),
                    "identifiers": .object(["dob": .boolean, "last4": .boolean, "ssn": .boolean], optional: ["dob", "last4", "ssn"]),
                    "cipConfidence": .string, "reasonCodes": .array(.string),
                ], optional: ["name", "address", "email", "reasonCodes"]),
                "multiCIPConfidence": .string,
            ]),
        ], optional: ["idv", "changeDetected"]),
        "BeginRequest": .object(["testMode": .boolean, "sdkVersion": .string], optional: ["sdkVersion"]),
        "Step": .object([
            "next": .oneOf(PossessionWire.Next.allCases.map(\.rawValue)), "phoneNumberNeeded": .boolean,
            "carrierCheck": .object(["provider": .string, "url": .string, "redirectUri": .string], optional: ["url", "redirectUri"]),
            "otpLength": .integer, "authId": .string,
        ], optional: ["phoneNumberNeeded", "carrierCheck", "otpLength", "authId"]),
        "Session": .object(["deviceToken": .string, "authId": .string, "testMode": .boolean, "step": .ref("Step")]),
        "CarrierEvidence": .object(["provider": .string, "code": .string, "state": .string, "error": .string], optional: ["code", "state", "error"]),
        "OTPStartRequest": .object(["phoneNumber": .string], optional: ["phoneNumber"]),
        "OTPFinishRequest": .object(["otp": .string]),
    ]

    static let correlationId = "01a2333c-6f4d-75c7-83ec-66d7ecb17cd1"

    /// The requests that name a flow carry no example: a made-up `correlationId` names no flow,
    /// and a fuzzer would send it as it is. The links from start carry the real one.
    static var prove: [Operation] {
        let endpoints = ProveWire.Endpoints.self
        var token = Operation(
            endpoints.token.described,
            body: Content(
                mediaType: "application/x-www-form-urlencoded", schema: .ref("TokenForm"),
                example: .literal(["grant_type": .string("client_credentials"), "client_id": .string("ghpc_01a2"), "client_secret": .string("T5nY-u5ul0")])),
            replies: [.ok(.ref("TokenResponse"), .wire(ProveWire.TokenResponse(accessToken: "ghpt_01a2.V9lR", expiresIn: 3600)))])
        token.replies[0].headers = ["Cache-Control": .oneOf(["no-store"])]
        token.security = [[], ["clientBasic"]]
        let individual = ProveWire.Individual(firstName: "Ada", lastName: "Lovelace", dob: "1985-12-10")
        return [
            token,
            Operation(
                endpoints.start.described,
                body: .json(.ref("StartRequest"), example: .wire(ProveWire.StartRequest(flowType: "mobile", phoneNumber: "+12025550142", finalTargetUrl: "https://example.com/done"))),
                replies: [.ok(.ref("StartResponse"), .wire(ProveWire.StartResponse(authToken: "eyJhbGciOiJIUzI1NiJ9.e30.sig", correlationId: correlationId, next: ProveWire.Step.validate.next)),
                    links: [
                        Link(name: "validate", operationId: "validate", requestBody: ["correlationId": "$response.body#/correlationId"]),
                        Link(name: "challenge", operationId: "challenge", requestBody: ["correlationId": "$response.body#/correlationId"]),
                        Link(name: "complete", operationId: "complete", requestBody: ["correlationId": "$response.body#/correlationId"]),
                    ])]),
            Operation(
                endpoints.validate.described,
                body: .json(.ref("ValidateRequest")),
                replies: [.ok(.ref("ValidateResponse"), .wire(ProveWire.ValidateResponse(success: true, challengeMissing: false, phoneNumber: "+12025550142", next: ProveWire.Step.challenge.next)))]),
            Operation(
                endpoints.challenge.described,
                body: .json(.ref("ChallengeRequest")),
                replies: [.ok(.ref("ChallengeResponse"), .wire(ProveWire.ChallengeResponse(success: true, individual: individual, next: ProveWire.Step.complete.next)))]),
            Operation(
                endpoints.complete.described,
                body: .json(.ref("CompleteRequest")),
                replies: [.ok(.ref("CompleteResponse"), .wire(ProveWire.CompleteResponse(success: true, next: ProveWire.Step.done.next, idv: nil, changeDetected: false)))]),
        ]
    }

    static var device: [Operation] {
        let endpoints = PossessionWire.Endpoints.self
        let step = Example.wire(PossessionWire.Step(next: .otpStart, phoneNumberNeeded: false, otpLength: 4))
        func operation<Body>(_ endpoint: Endpoint<Body, PossessionWire.Step>, body: Content?) -> Operation {
            Operation(endpoint.described, body: body, replies: [.ok(.ref("Step"), step)])
        }
        return [
            Operation(
                endpoints.begin.described, body: .json(.ref("BeginRequest"), example: .wire(PossessionWire.BeginRequest(testMode: true, sdkVersion: "1.0"))),
                replies: [.ok(.ref("Session"), .wire(PossessionWire.Session(
                    deviceToken: "ghpd_01a2.HJQ_", authId: correlationId, testMode: true, step: .init(next: .carrierCheck, carrierCheck: .init(provider: "test")))))]),
            operation(endpoints.carrierCheck, body: .json(.ref("CarrierEvidence"), example: .wire(PossessionWire.CarrierEvidence(provider: "test", code: "ok")))),
            operation(endpoints.otpStart, body: .json(.ref("OTPStartRequest"), example: .wire(PossessionWire.OTPStartRequest(phoneNumber: "+12025550142")))),
            operation(endpoints.otpFinish, body: .json(.ref("OTPFinishRequest"), example: .wire(PossessionWire.OTPFinishRequest(otp: "1234")))),
            operation(endpoints.cancel, body: nil),
        ]
    }
}
