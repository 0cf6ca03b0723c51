import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats
import GatehouseTesting
import Testing
@testable import GatehouseAccountsEngine

/// Passkeys in the accounts engine: the relying party's configuration, registration and
/// sign-in with their challenges kept on the server, and the rules that need stored state
/// (single-use and expiring challenges, owners, user handles, counters, backup eligibility).
@Suite struct PasskeyTests {
    static let config = PasskeyConfig(rpID: "id.example", rpName: "Example", origins: ["https://id.example"], iosAppIDs: ["ABCDE12345.com.example.app"], enabled: true)
    static let origin = "https://id.example"

    /// A signed-in account with the tenant's passkeys configured.
    func setUp(_ kind: TestDatabaseKind) async throws -> (SignInHarness, SessionPrincipal) {
        let h = try await SignInHarness(kind, policy: OneTimeCodePolicy())
        _ = try await h.accounts.setPasskeyConfig(tenantID: h.tenantID, Self.config)
        let pair = try await h.accounts.verifyCode(
            tenantID: h.tenantID, channel: .phone, identifier: h.phone, code: try await h.requestCode(), device: DeviceInfo(name: "iPhone", platform: "IOS"))
        return (h, try await h.accounts.sessions.authenticate(accessToken: pair.accessToken))
    }

    func register(_ h: SignInHarness, _ principal: SessionPrincipal, _ authenticator: SoftwareAuthenticator, _ algorithm: SoftwareAuthenticator.Algorithm,
                  answer: SoftwareAuthenticator.Answer = .init()) async throws -> (SoftwareAuthenticator.Credential, Passkey) {
        let options = try await h.accounts.passkeyCreationOptions(principal)
        let (credential, response) = try authenticator.register(
            algorithm: algorithm, rpID: options.rpID, origin: Self.origin, challenge: options.challenge, userHandle: options.userID, answer: answer)
        return (credential, try await h.accounts.registerPasskey(principal, response: response, name: "Phone \(algorithm)"))
    }

    @Test(arguments: TestDatabaseKind.available)
    func passkeysRegisterAndSignInDiscoverableAndByAccount(_ kind: TestDatabaseKind) async throws {
        let (h, principal) = try await setUp(kind)
        defer { h.close() }
        let authenticator = SoftwareAuthenticator()
        for algorithm in SoftwareAuthenticator.Algorithm.allCases {
            let (credential, passkey) = try await register(h, principal, authenticator, algorithm)
            #expect(passkey.backedUp && passkey.id == Base64URL.encode(credential.id))
            // Discoverable: no identifier, an empty list, the user handle names the account.
            let open = try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: nil)
            #expect(open.allowedCredentials.isEmpty && open.rpID == "id.example")
            let pair = try await h.accounts.signInWithPasskey(
                tenantID: h.tenantID, response: try authenticator.assert(credential, origin: Self.origin, challenge: open.challenge), device: DeviceInfo(name: "Mac"))
            #expect(try await h.accounts.sessions.authenticate(accessToken: pair.accessToken).accountId == principal.accountId)
            // By account: its passkeys are listed.
            let byAccount = try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: (.phone, h.phone))
            #expect(byAccount.allowedCredentials.contains(credential.id))
            _ = try await h.accounts.signInWithPasskey(
                tenantID: h.tenantID, response: try authenticator.assert(credential, origin: Self.origin, challenge: byAccount.challenge), device: DeviceInfo())
        }
        // The user handle is random, never the phone; existing passkeys are excluded from a new registration.
        let options = try await h.accounts.passkeyCreationOptions(principal)
        #expect(options.userID.count == 32 && options.excludedCredentials.count == 3 && options.userName == h.phone)
        let listed = try await h.accounts.passkeys(principal)
        #expect(listed.count == 3 && listed.allSatisfy { $0.lastUsedAt != nil })
        let renamed = try await h.accounts.renamePasskey(principal, id: listed[0].id, name: "Work phone")
        #expect(renamed.name == "Work phone")
        await #expect(throws: PasskeyError.nameInvalid) { try await h.accounts.renamePasskey(principal, id: listed[0].id, name: "a\u{202E}b") }
        // Deletion needs a recent sign-in; the account's deletion takes its passkeys.
        h.clock.advance(by: AccountsEngine.passkeyDeletionWindow + 1)
        await #expect(throws: PasskeyError.recentSignInRequired) { try await h.accounts.deletePasskey(principal, id: listed[0].id) }
        let fresh = try await h.accounts.signInWithPasskey(
            tenantID: h.tenantID,
            response: try authenticator.assert(authenticator.credentials[0], origin: Self.origin,
                challenge: try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: nil).challenge),
            device: DeviceInfo())
        let recent = try await h.accounts.sessions.authenticate(accessToken: fresh.accessToken)
        try await h.accounts.deletePasskey(recent, id: listed[0].id)
        await #expect(throws: PasskeyError.credentialUnknown) { try await h.accounts.deletePasskey(recent, id: listed[0].id) }
        try await h.accounts.deleteAccount(recent)
        #expect(try await h.store.database.read { db in try db.queryOne("SELECT COUNT(*) AS n FROM passkey_credentials")!.get("n") as Int } == 0)
    }

    @Test(arguments: TestDatabaseKind.available)
    func statefulRulesRefuseAndLeaveTheCounterAlone(_ kind: TestDatabaseKind) async throws {
        let (h, principal) = try await setUp(kind)
        defer { h.close() }
        let authenticator = SoftwareAuthenticator()
        var counting = SoftwareAuthenticator.Answer()
        counting.signCount = 5
        let (credential, _) = try await register(h, principal, authenticator, .es256, answer: counting)
        func options() async throws -> [UInt8] { try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: nil).challenge }
        func signIn(_ assertion: WebAuthnRelyingParty.Assertion) async throws { _ = try await h.accounts.signInWithPasskey(tenantID: h.tenantID, response: assertion, device: DeviceInfo()) }
        func counter() async throws -> Int64 {
            try await h.store.database.read { db in try db.queryOne("SELECT sign_count FROM passkey_credentials")!.get("sign_count") }
        }
        var moving = credential
        moving.signCount = 6
        let challenge = try await options()
        let first = try authenticator.assert(moving, origin: Self.origin, challenge: challenge)
        try await signIn(first)
        #expect(try await counter() == 6)
        // Replayed: the same answer again.
        await #expect(throws: PasskeyError.challengeInvalid) { try await signIn(first) }
        // Expired.
        let late = try await options()
        h.clock.advance(by: AccountsEngine.passkeyChallengeLifetime + 1)
        moving.signCount = 7
        await #expect(throws: PasskeyError.challengeInvalid) { try await signIn(try authenticator.assert(moving, origin: Self.origin, challenge: late)) }
        // A registration's challenge at sign-in.
        let creation = try await h.accounts.passkeyCreationOptions(principal).challenge
        await #expect(throws: PasskeyError.challengeInvalid) { try await signIn(try authenticator.assert(moving, origin: Self.origin, challenge: creation)) }
        // Counter regression: refused, flagged, the stored counter unchanged.
        var stale = credential
        stale.signCount = 6
        await #expect(throws: PasskeyError.counterRegressed) { try await signIn(try authenticator.assert(stale, origin: Self.origin, challenge: try await options())) }
        #expect(try await counter() == 6)
        // A rule of the ceremony: the counter stays too.
        var wrongOrigin = SoftwareAuthenticator.Answer()
        wrongOrigin.origin = "https://evil.example"
        await #expect(throws: PasskeyError.ceremony(.originNotAllowed)) {
            try await signIn(try authenticator.assert(moving, origin: Self.origin, challenge: try await options(), answer: wrongOrigin))
        }
        #expect(try await counter() == 6)
        // BE is the registration's.
        var notEligible = SoftwareAuthenticator.Answer()
        notEligible.flags = [.userPresent, .userVerified]
        moving.signCount = 8
        await #expect(throws: PasskeyError.backupEligibilityChanged) {
            try await signIn(try authenticator.assert(moving, origin: Self.origin, challenge: try await options(), answer: notEligible))
        }
        // An unknown credential; a user handle that is not the owner's.
        let stranger = SoftwareAuthenticator()
        let (unknown, _) = try stranger.register(algorithm: .eddsa, rpID: "id.example", origin: Self.origin, challenge: [UInt8](repeating: 1, count: 32), userHandle: [9])
        await #expect(throws: PasskeyError.credentialUnknown) { try await signIn(try stranger.assert(unknown, origin: Self.origin, challenge: try await options())) }
        var mismatched = try authenticator.assert(moving, origin: Self.origin, challenge: try await options())
        mismatched.userHandle = [1, 2, 3]
        await #expect(throws: PasskeyError.userHandleMismatch) { try await signIn(mismatched) }
        #expect(try await counter() == 6)
        // By another account: this credential is not among its own.
        // Nobody's email: an id that names nothing, the same each time, so the answer tells no one who has an account.
        let other = try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: (.email, "nobody@example.com"))
        let again = try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: (.email, "nobody@example.com"))
        #expect(other.allowedCredentials.count == 1 && other.allowedCredentials == again.allowedCredentials && !other.allowedCredentials.contains(credential.id))
    }

    @Test(arguments: TestDatabaseKind.available)
    func registrationsAreCheckedAgainstTheirOwnChallengeAndIDs(_ kind: TestDatabaseKind) async throws {
        let (h, principal) = try await setUp(kind)
        defer { h.close() }
        let authenticator = SoftwareAuthenticator()
        let options = try await h.accounts.passkeyCreationOptions(principal)
        let (_, response) = try authenticator.register(algorithm: .rs256, rpID: "id.example", origin: Self.origin, challenge: options.challenge, userHandle: options.userID)
        _ = try await h.accounts.registerPasskey(principal, response: response, name: "Laptop")
        // The same response again: its challenge is spent.
        await #expect(throws: PasskeyError.challengeInvalid) { try await h.accounts.registerPasskey(principal, response: response, name: "Laptop") }
        // The same credential id under a fresh challenge: refused as registered.
        let again = try await h.accounts.passkeyCreationOptions(principal)
        var duplicate = try authenticator.register(algorithm: .rs256, rpID: "id.example", origin: Self.origin, challenge: again.challenge, userHandle: again.userID).response
        let object = try CBORReader.decode(duplicate.attestationObject)
        var authData = try #require(object["authData"]?.byteString)
        let oldID = response.rawID
        authData.replaceSubrange(55..<(55 + oldID.count), with: oldID)
        duplicate = try resigned(duplicate, authData: authData, id: oldID)
        await #expect(throws: PasskeyError.credentialAlreadyRegistered) { try await h.accounts.registerPasskey(principal, response: duplicate, name: "Copy") }
        // A session signed in more than ten minutes ago may not add a passkey.
        h.clock.advance(by: AccountsEngine.passkeyDeletionWindow + 1)
        await #expect(throws: PasskeyError.recentSignInRequired) { try await h.accounts.passkeyCreationOptions(principal) }
        // Off: no options, no sign-in.
        var off = Self.config
        off.enabled = false
        _ = try await h.accounts.setPasskeyConfig(tenantID: h.tenantID, off)
        await #expect(throws: PasskeyError.notEnabled) { try await h.accounts.passkeyCreationOptions(principal) }
        await #expect(throws: PasskeyError.notEnabled) { try await h.accounts.passkeyRequestOptions(tenantID: h.tenantID, identifier: nil) }
        // Configurations that name no one's site, or origins outside the rpId, are refused.
        // Public suffixes by the Public Suffix List (ICANN's and private ones) and an address too.
        let suffixes = ["com", "co.uk", "github.io", "s3.amazonaws.com", "192.168.1.20"].map {
            PasskeyConfig(rpID: $0, rpName: "x", origins: ["https://\($0)"], iosAppIDs: [], enabled: true)
        }
        for bad in suffixes + [
                    PasskeyConfig(rpID: "id.example", rpName: "x", origins: ["https://evil.example"], iosAppIDs: [], enabled: true),
                    PasskeyConfig(rpID: "id.example", rpName: "x", origins: ["http://id.example"], iosAppIDs: [], enabled: true),
                    PasskeyConfig(rpID: "id.example", rpName: "x", origins: ["https://id.example/path"], iosAppIDs: [], enabled: true),
                    PasskeyConfig(rpID: "ID.example", rpName: "x", origins: ["https://id.example"], iosAppIDs: [], enabled: true),
                    PasskeyConfig(rpID: "id.example", rpName: "x", origins: ["https://id.example"], iosAppIDs: ["nope"], enabled: true)] {
            await #expect(throws: PasskeyError.self, "\(bad)") { try await h.accounts.setPasskeyConfig(tenantID: h.tenantID, bad) }
        }
        #expect(try await h.accounts.associatedApps(host: "id.example") == nil)
        // A registrable domain under a two-label suffix, and a name under one, are someone's.
        for good in ["example.co.uk", "login.example.co.uk", "me.github.io"] {
            _ = try await h.accounts.setPasskeyConfig(tenantID: h.tenantID, PasskeyConfig(rpID: good, rpName: "x", origins: ["https://\(good)"], iosAppIDs: [], enabled: true))
        }
        _ = try await h.accounts.setPasskeyConfig(tenantID: h.tenantID, Self.config)
        #expect(try await h.accounts.associatedApps(host: "ID.example:443") == ["ABCDE12345.com.example.app"])
    }

    /// The same registration with another credential id: authData rewritten, `packed` not used
    /// (a `none` attestation carries no signature over authData).
    func resigned(_ response: WebAuthnRelyingParty.Registration, authData: [UInt8], id: [UInt8]) throws -> WebAuthnRelyingParty.Registration {
        let object = CBOR.map([
            CBORPair(key: .text("fmt"), value: .text("none")), CBORPair(key: .text("attStmt"), value: .map([])),
            CBORPair(key: .text("authData"), value: .bytes(authData)),
        ])
        return WebAuthnRelyingParty.Registration(id: Base64URL.encode(id), rawID: id, clientDataJSON: response.clientDataJSON, attestationObject: object.encoded)
    }
}
