import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats
import GatehouseOutbound
import GatehouseAccountsEngine
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseWire
import Testing

/// Passkeys end to end: the `GatehouseAuth` SDK's calls against the live server, with a
/// software authenticator (P-256, Ed25519 and RSA keys) in place of the platform's.
@Suite struct PasskeySDKTests {
    static let origin = "https://id.example"

    /// The authenticator's registration as the SDK sends it.
    static func wire(_ response: WebAuthnRelyingParty.Registration) -> DatacoveWire.PasskeyRegistrationCredential {
        .init(id: response.id, rawId: Base64URL.encode(response.rawID), type: response.type,
              response: .init(clientDataJSON: Base64URL.encode(response.clientDataJSON), attestationObject: Base64URL.encode(response.attestationObject)))
    }

    static func wire(_ assertion: WebAuthnRelyingParty.Assertion) -> DatacoveWire.PasskeyAssertionCredential {
        .init(id: assertion.id, rawId: Base64URL.encode(assertion.rawID), type: assertion.type, response: .init(
            clientDataJSON: Base64URL.encode(assertion.clientDataJSON), authenticatorData: Base64URL.encode(assertion.authenticatorData),
            signature: Base64URL.encode(assertion.signature), userHandle: assertion.userHandle.map(Base64URL.encode)))
    }

    @Test(arguments: TestDatabaseKind.available)
    func registerSignInRenameDeleteThroughTheSDK(_ kind: TestDatabaseKind) async throws {
        let setup = try await AuthSDKTests.setup(kind)
        let live = setup.live
        do {
            // The tenant's relying party, with the admin token.
            let config = DatacoveWire.PasskeyConfig(rpId: "id.example", rpName: "Example", origins: [Self.origin], iosAppIds: ["ABCDE12345.com.example.app"], enabled: true)
            let admin = APIClient(baseURL: live.baseURL, transport: live.transport).with(header: "Authorization", "Bearer \(live.credentials.adminToken)")
            let stored = try await admin.call(DatacoveWire.Endpoints.Store.putPasskeyConfig, ["tenantId": live.credentials.tenantId], body: config)
            #expect(stored == config)
            // Signed in by a code, the account registers a passkey of each kind.
            let phone = setup.client()
            try await setup.signIn(phone, phone: "+14165550177")
            let authenticator = SoftwareAuthenticator()
            for algorithm in SoftwareAuthenticator.Algorithm.allCases {
                let options = try await phone.passkeyCreationOptions()
                #expect(options.rp.id == "id.example" && options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
                #expect(options.authenticatorSelection.residentKey == "required" && options.attestation == "none")
                let (_, response) = try authenticator.register(
                    algorithm: algorithm, rpID: options.rp.id, origin: Self.origin, challenge: Base64URL.decode(options.challenge)!,
                    userHandle: Base64URL.decode(options.user.id)!)
                let info = try await phone.registerPasskey(name: "Key \(algorithm)", credential: Self.wire(response))
                #expect(info.backedUp && info.lastUsedAt == nil)
            }
            #expect(try await phone.passkeyCreationOptions().excludeCredentials.count == 3)
            let signedInBefore = live.app.accounts.signIns.value(["tenant": live.credentials.tenantId, "method": "passkey"])
            // Another device signs in with each, discoverable and by account; the pair works and rotates.
            for (index, credential) in authenticator.credentials.enumerated() {
                let laptop = setup.client(device: "Laptop \(index)")
                let options = try await laptop.passkeySignInOptions(phone: index.isMultiple(of: 2) ? nil : "+14165550177")
                #expect(options.allowCredentials.isEmpty == index.isMultiple(of: 2))
                try await laptop.signInWithPasskey(Self.wire(try authenticator.assert(credential, origin: Self.origin, challenge: Base64URL.decode(options.challenge)!)))
                #expect(try await laptop.profile().phone == "14165550177")
                setup.clock.advance(by: 3600)
                #expect(try await laptop.profile().phone == "14165550177")
            }
            // /metrics counts them beside the code's sign-ins.
            #expect(live.app.accounts.signIns.value(["tenant": live.credentials.tenantId, "method": "passkey"]) == signedInBefore + 3)
            #expect(live.app.accounts.signIns.value(["tenant": live.credentials.tenantId, "method": "otp"]) >= 1)
            // Rename; delete needs a recent sign-in.
            func signedIn(_ device: String) async throws -> AuthClient {
                let client = setup.client(device: device)
                let options = try await client.passkeySignInOptions()
                try await client.signInWithPasskey(Self.wire(try authenticator.assert(authenticator.credentials[0], origin: Self.origin,
                    challenge: Base64URL.decode(options.challenge)!)))
                return client
            }
            let fresh = try await signedIn("Fresh")
            let listed = try await fresh.passkeys()
            #expect(listed.count == 3 && listed.allSatisfy { $0.lastUsedAt != nil })
            #expect(try await fresh.renamePasskey(id: listed[1].id, name: "Work laptop").name == "Work laptop")
            setup.clock.advance(by: 11 * 60)
            await #expect(throws: (any Error).self) { try await fresh.deletePasskey(id: listed[1].id) }
            // The device limit holds for passkey sign-ins as for codes: the sixth session ends the oldest (the phone's).
            let again = try await signedIn("Again")
            await #expect(throws: AuthError.self) { try await phone.profile() }
            try await again.deletePasskey(id: listed[1].id)
            #expect(try await again.passkeys().map(\.id) == [listed[0].id, listed[2].id])
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    /// `apple-app-site-association` names the iOS apps of the relying party the host is, as
    /// JSON with no redirect; another host has none. Sign-in options are counted per address.
    @Test(arguments: TestDatabaseKind.available)
    func theAssociationFileAndTheOptionsLimit(_ kind: TestDatabaseKind) async throws {
        let setup = try await AuthSDKTests.setup(kind)
        let live = setup.live
        do {
            _ = try await live.app.accounts.setPasskeyConfig(tenantID: live.credentials.tenantId, PasskeyConfig(
                rpID: "id.example", rpName: "Example", origins: [Self.origin], iosAppIDs: ["ABCDE12345.com.example.app"], enabled: true))
            let http = CurlHTTPClient()
            func association(host: String) async throws -> (Int, String, String?) {
                var request = OutboundRequest(url: URL(string: "http://127.0.0.1:\(live.port)/.well-known/apple-app-site-association")!, timeoutInterval: 30)
                request.setValue(host, forHTTPHeaderField: "Host")
                let (data, response) = try await http.send(request)
                return (response.statusCode, String(decoding: data, as: UTF8.self), response.value(forHTTPHeaderField: "Content-Type"))
            }
            let (status, body, type) = try await association(host: "id.example")
            #expect(status == 200 && body == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"# && type?.hasPrefix("application/json") == true)
            #expect(try await association(host: "other.example").0 == 404)
            let client = setup.client()
            for _ in 0..<60 { _ = try await client.passkeySignInOptions() }
            await #expect(throws: (any Error).self) { try await client.passkeySignInOptions() }
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    /// The SDK's own flow: `registerPasskey(name:using:)` and `signInWithPasskey(using:)` with
    /// a software `PasskeyAuthenticator`, the pair stored as a code's sign-in stores it.
    @Test(arguments: TestDatabaseKind.available)
    func theSDKRegistersAndSignsInWithAnAuthenticator(_ kind: TestDatabaseKind) async throws {
        let setup = try await AuthSDKTests.setup(kind)
        let live = setup.live
        do {
            _ = try await live.app.accounts.setPasskeyConfig(tenantID: live.credentials.tenantId, PasskeyConfig(
                rpID: "id.example", rpName: "Example", origins: [Self.origin], iosAppIDs: [], enabled: true))
            let phone = setup.client()
            try await setup.signIn(phone, phone: "+14165550166")
            let device = SoftwarePasskeyAuthenticator(algorithm: .eddsa, origin: Self.origin)
            let info = try await phone.registerPasskey(name: "Pixel", using: device)
            #expect(info.name == "Pixel")
            let store = InMemoryTokenStore()
            let laptop = setup.client(store)
            let pair = try await laptop.signInWithPasskey(using: device)
            #expect(try store.read()?.accessToken == pair.accessToken)
            #expect(try await laptop.profile().phone == "14165550166")
            #expect(try await setup.client().signInWithPasskey(using: device, phone: "+14165550166").accessToken != pair.accessToken)
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    /// Hostile CBOR and broken answers over HTTP: each a 4xx in the dialect's envelope with a
    /// stable code, never a 5xx, and the stored counter untouched.
    @Test(arguments: TestDatabaseKind.available)
    func hostileAnswersAreRefusedWithStableCodes(_ kind: TestDatabaseKind) async throws {
        let setup = try await AuthSDKTests.setup(kind)
        let live = setup.live
        do {
            _ = try await live.app.accounts.setPasskeyConfig(tenantID: live.credentials.tenantId, PasskeyConfig(
                rpID: "id.example", rpName: "Example", origins: [Self.origin], iosAppIDs: [], enabled: true))
            let phone = setup.client()
            try await setup.signIn(phone, phone: "+14165550155")
            let token = try #require(try phone.session.currentTokens()?.accessToken)
            let client = DatacoveClient(live)
            func register(_ attestation: [UInt8], clientData: [UInt8]? = nil) async throws -> (Int, String) {
                let options = try await phone.passkeyCreationOptions()
                let data = clientData ?? Array(#"{"type":"webauthn.create","challenge":"\#(options.challenge)","origin":"https://id.example"}"#.utf8)
                let answer = try await client.call("POST", "auth/v1/passkeys", ["name": "x", "credential": [
                    "id": "AQID", "rawId": "AQID", "type": "public-key",
                    "response": ["clientDataJSON": Base64URL.encode(data), "attestationObject": Base64URL.encode(attestation)],
                ]], token: token)
                return (answer.status, (answer.json["error"] as? [String: Any])?["code"] as? String ?? "")
            }
            let hostile: [(String, [UInt8])] = [
                ("nested deep", [UInt8](repeating: 0x81, count: 10_000) + [0]),
                ("a huge length", [0xBA, 0xFF, 0xFF, 0xFF, 0xFF]),
                ("an indefinite length", [0xBF, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0xFF]),
                ("trailing bytes", CBOR.map([CBORPair(key: .text("fmt"), value: .text("none"))]).encoded + [0]),
                ("not a map", CBOR.array([]).encoded),
                ("a megabyte of one-byte items", [0x9A, 0x00, 0x0F, 0x42, 0x40] + [UInt8](repeating: 0, count: 60_000)),
            ]
            for (name, bytes) in hostile {
                let (status, code) = try await register(bytes)
                #expect(status == 400 && code == "PASSKEY_INVALID", "\(name): \(status) \(code)")
            }
            // A body past the server's limit, and base64 that is not: refused before any parse.
            #expect(try await register([UInt8](repeating: 0, count: 2 << 20)).0 == 413)
            let broken = try await client.call("POST", "auth/v1/passkeys", ["name": "x", "credential": [
                "id": "AQID", "rawId": "AQ==?", "type": "public-key", "response": ["clientDataJSON": "e30", "attestationObject": "oA"]]], token: token)
            #expect(broken.status == 400)
            // A spent or unknown challenge: its own code.
            #expect(try await register(CBOR.map([]).encoded, clientData: Array(#"{"type":"webauthn.create","challenge":"AAAA","origin":"x"}"#.utf8)).1
                == "PASSKEY_CHALLENGE_INVALID")
            // A registered passkey, then a sign-in whose counter goes back: refused, the counter as it was.
            let device = SoftwarePasskeyAuthenticator(algorithm: .es256, origin: Self.origin)
            try await phone.registerPasskey(name: "Phone", using: device)
            let options = try await phone.passkeySignInOptions()
            var credential = device.authenticator.credentials[0]
            credential.signCount = 9
            var answer = SoftwareAuthenticator.Answer()
            answer.signCount = 9
            let assertion = try device.authenticator.assert(credential, origin: Self.origin, challenge: Base64URL.decode(options.challenge)!, answer: answer)
            let first = try await client.call("POST", "auth/v1/passkeys/sign-in", ["credential": Self.wireJSON(assertion)], key: true)
            #expect(first.status == 200)
            let again = try await phone.passkeySignInOptions()
            let stale = try device.authenticator.assert(credential, origin: Self.origin, challenge: Base64URL.decode(again.challenge)!, answer: answer)
            let refused = try await client.call("POST", "auth/v1/passkeys/sign-in", ["credential": Self.wireJSON(stale)], key: true)
            #expect(refused.status == 400 && (refused.json["error"] as? [String: Any])?["code"] as? String == "PASSKEY_INVALID")
            #expect(try await live.app.environment.database.read { db in try db.queryOne("SELECT sign_count FROM passkey_credentials")!.get("sign_count") as Int64 } == 9)
        } catch {
            await live.stop()
            throw error
        }
        await live.stop()
    }

    static func wireJSON(_ assertion: WebAuthnRelyingParty.Assertion) -> [String: Any] {
        ["id": assertion.id, "rawId": Base64URL.encode(assertion.rawID), "type": assertion.type, "response": [
            "clientDataJSON": Base64URL.encode(assertion.clientDataJSON), "authenticatorData": Base64URL.encode(assertion.authenticatorData),
            "signature": Base64URL.encode(assertion.signature), "userHandle": assertion.userHandle.map(Base64URL.encode) ?? "",
        ]]
    }
}
