import GatehouseHTTP
import GatehouseWire

/// The Datacove tenant API: OTP sign-in and sessions, the profile, purchases and the
/// entitlement, the store setup, and workflows with their reports.
enum DatacoveDocument {
    static var document: Document {
        Document(
            name: "datacove", title: "Gatehouse sign-in, purchases and workflows (Datacove dialect)",
            description: "Sign-in asks for a code and verifies it with the app's platform key (`x-api-key`); every other call of the "
                + "app carries the session's access token (`Authorization: Bearer`). Store setup under `/api/tenants/v1` takes the "
                + "admin token. The report stream (`text/event-stream`) and the worker's callback and file routes are documented but "
                + "not fuzzed: a stream does not end, and the worker routes need a run's own signature or signed link.",
            securitySchemes: [
                "platformKey": .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("x-api-key")]),
                "accessToken": .object(["type": .string("http"), "scheme": .string("bearer")]),
                "adminToken": .object(["type": .string("http"), "scheme": .string("bearer"), "description": .string("the admin token")]),
                "workerSignature": .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("X-Gatehouse-Signature")]),
            ],
            security: [["accessToken"]], error: .ref("Error"),
            schemas: DatacoveSchemas.sessions.merging(DatacoveSchemas.commerce) { a, _ in a }.merging(DatacoveSchemas.workflows) { a, _ in a }
                .merging(WorkflowSchemas.input) { a, _ in a }.merging(DatacoveSchemas.passkeys) { a, _ in a },
            operations: sessions + passkeys + commerce + store + passkeyConfig + workflows)
    }

    static let at = "2026-12-01T10:00:00.000Z"
    static let tokens = Example.wire(DatacoveWire.TokenPair(accessToken: "eyJhbGciOiJIUzI1NiJ9.e30.sig", refreshToken: "ghr_01a2.refresh", expiresIn: 900))

    static var sessions: [Operation] {
        let signedIn = Reply.ok(.ref("TokenPair"), tokens, "Signed in", links: [
            Link(name: "sessions", operationId: "listSessions"), Link(name: "profile", operationId: "getProfile"),
            Link(name: "refresh", operationId: "refresh", requestBody: ["refreshToken": "$response.body#/refreshToken"]),
        ])
        let success = Reply.ok(.ref("Success"), .wire(DatacoveWire.Success()), "Code sent")
        let profile = Example.wire(DatacoveWire.Profile(
            name: "Ada", phone: "+14155550123", email: nil, country: "US", timezone: "Europe/London", status: "active", wallet: ["credits": 12]))
        let session = DatacoveWire.Session(
            id: "01a2b3c4-0000-7000-8000-000000000009", deviceName: "iPhone", platform: "IOS", appVersion: "2.1.0", createdAt: at, lastUsedAt: at, current: true)
        let endpoints = DatacoveWire.Endpoints.self
        return [
            Operation(endpoints.requestPhoneCode.described,
                body: .json(.ref("PhoneCodeRequest"), example: .wire(DatacoveWire.PhoneCodeRequest(phoneNumber: "+14155550123", name: "Ada"))), replies: [success]),
            Operation(endpoints.verifyPhoneCode.described,
                body: .json(.ref("PhoneCodeCheck"), example: .wire(DatacoveWire.PhoneCodeCheck(phoneNumber: "+14155550123", otp: "246810"))), replies: [signedIn]),
            Operation(endpoints.requestEmailCode.described,
                body: .json(.ref("EmailCodeRequest"), example: .wire(DatacoveWire.EmailCodeRequest(email: "ada@example.com"))), replies: [success]),
            Operation(endpoints.verifyEmailCode.described,
                body: .json(.ref("EmailCodeCheck"), example: .wire(DatacoveWire.EmailCodeCheck(email: "ada@example.com", otp: "246810"))), replies: [signedIn]),
            Operation(endpoints.activate.described, replies: [.ok(.ref("TokenPair"), tokens)]),
            Operation(endpoints.refresh.described,
                body: .json(.ref("RefreshRequest"), example: .wire(DatacoveWire.RefreshRequest(refreshToken: "ghr_01a2.refresh"))), replies: [.ok(.ref("TokenPair"), tokens)]),
            Operation(endpoints.logout.described, replies: [.empty()]),
            Operation(endpoints.sessions.described,
                replies: [.ok(.ref("Sessions"), .wire(DatacoveWire.Sessions(data: [session])), links: [
                    Link(name: "signOut", operationId: endpoints.signOutSession.id, parameters: ["id": "$response.body#/data/0/id"]),
                ])]),
            Operation(endpoints.signOutSession.described,
                replies: [.empty(), Reply(status: "404", description: "No such session of this account", content: .json(.ref("Error")))]),
            Operation(endpoints.profile.described, replies: [.ok(.ref("Profile"), profile)]),
            Operation(endpoints.updateProfile.described,
                body: .json(.ref("ProfileUpdate"), example: .wire(DatacoveWire.ProfileUpdate(name: "Ada", timezone: "Europe/London"))),
                replies: [.ok(.ref("Profile"), profile)]),
            Operation(endpoints.deleteAccount.described, replies: [.empty()]),
        ]
    }
}
