import GatehouseHTTP
import GatehouseWire

/// Passkeys in the Datacove document: WebAuthn's JSON forms, binary fields as base64url.
extension DatacoveDocument {
    static var passkeys: [Operation] {
        let endpoints = DatacoveWire.Endpoints.self
        let challenge = "q1Vd2kT0b3Rj3nF6y9w8eA4sZ2cXvB7uN5mK1hG0jL8"
        let credentialID = "m9Zo8eY3bW2vU1tS0rQ7pA"
        let creation = DatacoveWire.PasskeyCreationOptions(
            rp: .init(id: "id.example.com", name: "Example"), user: .init(id: "c2Vzc2lvbi11c2VyLWhhbmRsZS0wMDAx", name: "+14155550123", displayName: "+14155550123"),
            challenge: challenge, algorithms: [-7, -8, -257], timeout: 300_000, excludeCredentials: [])
        let request = DatacoveWire.PasskeyRequestOptions(challenge: challenge, rpId: "id.example.com", timeout: 300_000, allowCredentials: [])
        let info = DatacoveWire.PasskeyInfo(id: credentialID, name: "iPhone", createdAt: at, lastUsedAt: nil, backedUp: true)
        let registration = DatacoveWire.PasskeyRegistration(name: "iPhone", credential: .init(
            id: credentialID, rawId: credentialID, response: .init(clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ")))
        let signIn = DatacoveWire.PasskeySignIn(credential: .init(
            id: credentialID, rawId: credentialID,
            response: .init(clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4", signature: "MEUCIQ", userHandle: nil)))
        return [
            Operation(endpoints.passkeyCreationOptions.described, replies: [.ok(.ref("PasskeyCreationOptions"), .wire(creation))]),
            Operation(endpoints.registerPasskey.described, body: .json(.ref("PasskeyRegistration"), example: .wire(registration)),
                replies: [.ok(.ref("PasskeyInfo"), .wire(info), status: 201, "Registered")]),
            Operation(endpoints.passkeys.described, replies: [.ok(.ref("PasskeyList"), .wire(DatacoveWire.PasskeyList(passkeys: [info])))]),
            Operation(endpoints.renamePasskey.described, body: .json(.ref("PasskeyRename"), example: .wire(DatacoveWire.PasskeyRename(name: "Work phone"))),
                replies: [.ok(.ref("PasskeyInfo"), .wire(info))]),
            Operation(endpoints.deletePasskey.described, replies: [.empty()]),
            Operation(endpoints.passkeySignInOptions.described,
                body: .json(.ref("PasskeySignInOptionsRequest"), example: .wire(DatacoveWire.PasskeySignInOptionsRequest())),
                replies: [.ok(.ref("PasskeyRequestOptions"), .wire(request))]),
            Operation(endpoints.passkeySignIn.described, body: .json(.ref("PasskeySignIn"), example: .wire(signIn)), replies: [.ok(.ref("TokenPair"), tokens)]),
        ]
    }

    static var passkeyConfig: [Operation] {
        let store = DatacoveWire.Endpoints.Store.self
        let config = DatacoveWire.PasskeyConfig(
            rpId: "id.example.com", rpName: "Example", origins: ["https://id.example.com"], iosAppIds: ["ABCDE12345.com.example.app"], enabled: true)
        return [
            Operation(store.putPasskeyConfig.described, body: .json(.ref("PasskeyConfig"), example: .wire(config)), replies: [.ok(.ref("PasskeyConfig"), .wire(config))]),
            Operation(store.passkeyConfig.described, replies: [.ok(.ref("PasskeyConfig"), .wire(config))]),
        ]
    }
}

extension DatacoveSchemas {
    static let passkeys: [String: Schema] = {
        let descriptor = Schema.object(["type": .oneOf(["public-key"]), "id": .string])
        let text = Schema.string
        return [
            "PasskeyCreationOptions": .object([
                "rp": .object(["id": text, "name": text]), "user": .object(["id": text, "name": text, "displayName": text]), "challenge": text,
                "pubKeyCredParams": .array(.object(["type": .oneOf(["public-key"]), "alg": .integer])), "timeout": .integer,
                "excludeCredentials": .array(descriptor),
                "authenticatorSelection": .object(["residentKey": text, "requireResidentKey": .boolean, "userVerification": text]),
                "attestation": text, "extensions": .object(["credProps": .boolean]),
            ]),
            "PasskeyRequestOptions": .object([
                "challenge": text, "rpId": text, "timeout": .integer, "userVerification": text, "allowCredentials": .array(descriptor),
            ]),
            "PasskeySignInOptionsRequest": .object(["phoneNumber": text, "email": text], optional: ["phoneNumber", "email"])
                .described("nothing for a discoverable sign-in; a phone number or an email (not both) for the account's passkeys"),
            "PasskeyRegistration": .object([
                "name": .string(minLength: 1, maxLength: 64),
                "credential": .object([
                    "id": text, "rawId": text, "type": .oneOf(["public-key"]), "authenticatorAttachment": text,
                    "response": .object(["clientDataJSON": text, "attestationObject": text, "transports": .array(text)], optional: ["transports"], open: true),
                ], optional: ["authenticatorAttachment"], open: true),
            ]),
            "PasskeySignIn": .object([
                "credential": .object([
                    "id": text, "rawId": text, "type": .oneOf(["public-key"]), "authenticatorAttachment": text,
                    "response": .object(["clientDataJSON": text, "authenticatorData": text, "signature": text, "userHandle": text],
                        optional: ["userHandle"], open: true),
                ], optional: ["authenticatorAttachment"], open: true),
            ]),
            "PasskeyInfo": .object(["id": text, "name": text, "createdAt": .dateTime, "lastUsedAt": nullableString, "backedUp": .boolean]),
            "PasskeyList": .object(["passkeys": .array(.ref("PasskeyInfo"))]),
            "PasskeyRename": .object(["name": .string(minLength: 1, maxLength: 64)]),
            "PasskeyConfig": .object([
                "rpId": text, "rpName": text, "origins": .array(text, maxItems: 20), "iosAppIds": .array(text, maxItems: 20), "enabled": .boolean,
            ]),
        ]
    }()
}
