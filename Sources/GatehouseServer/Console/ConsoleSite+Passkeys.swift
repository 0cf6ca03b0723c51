import Foundation
import GatehouseConsoleEngine
import GatehouseCrypto
import GatehouseFormats
import GatehouseHTML
import GatehouseHTTP
import GatehouseWire

extension ConsoleSite {
    /// The operator's own page: their passkeys, a second factor beside TOTP, added from the
    /// browser (console.js asks the platform's authenticator) and removed after the password.
    func registerPasskeys(on site: RouteGroup) {
        let (console, origin) = (console, origin)
        on(site, .GET, "/account") { request, _, session in
            let passkeys = try await console.passkeys(operatorID: session.account.id)
            var add: HTML = "<p class=\"muted\">Type your password again to add a passkey: <a href=\"/confirm?next=/account\">confirm</a>.</p>"
            if session.isConfirmed(at: environment.clock.now), let creation = try? await console.passkeyCreation(session) {
                let party = Self.relyingParty(request, origin: origin)
                let options = DatacoveWire.PasskeyCreationOptions(
                    rp: .init(id: party.id, name: "Gatehouse console"),
                    user: .init(id: Base64URL.encode(creation.userID), name: creation.userName, displayName: creation.userName),
                    challenge: Base64URL.encode(creation.challenge), algorithms: [COSEKey.es256, COSEKey.eddsa, COSEKey.rs256],
                    timeout: Int(ConsoleEngine.passkeyChallengeLifetime * 1000), excludeCredentials: creation.excluded.map { .init(id: Base64URL.encode($0)) })
                let json = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
                add = """
                    <div class="passkey" hidden><form method="post" action="/account/passkeys" data-passkey-create="\(json)"><input type="hidden" name="csrf" value="\(session.csrfToken)">\
                    <input type="hidden" name="credential" value="">\(ConsolePage.field("Passkey name", name: "name", value: "Passkey"))\
                    \(ConsolePage.field("Code from your authenticator", name: "code", extra: " inputmode=\"numeric\" autocomplete=\"one-time-code\" pattern=\"[0-9 ]{6,8}\""))\
                    <button type="submit">Add a passkey</button></form></div>
                    """
            }
            let rows = passkeys.map { passkey -> [HTML] in
                ["\(passkey.name)", "\(ConsolePage.time(passkey.createdAt))", "\(ConsolePage.time(passkey.lastUsedAt))",
                 ConsolePage.form(action: "/account/passkeys/\(passkey.id)/remove", session: session, button: "Remove", confirm: "Remove this passkey?")]
            }
            return ConsolePage.render("Your account", session: session, notice: Self.notice(request), """
                <dl class="facts"><div><dt>Email</dt><dd>\(session.account.email)</dd></div><div><dt>Role</dt><dd>\(session.account.role.rawValue)</dd></div></dl>\
                <section><h2>Passkeys</h2><p class="muted">Sign in with a passkey instead of the authenticator's code (the password is still asked).</p>\
                \(ConsolePage.table(["Name", "Added", "Last used", ""], rows, empty: "No passkeys."))\(add)</section>
                """)
        }
        on(site, .POST, "/account/passkeys") { request, context, session in
            let form = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/account")
            let registration = try Self.registration(form["credential"])
            do {
                _ = try await console.registerPasskey(
                    session, response: registration, name: form["name"], code: form["code"], party: Self.relyingParty(request, origin: origin),
                    clientAddress: context.clientAddress)
            } catch ConsoleError.passkeyRefused {
                throw ConsoleFailure.invalid("The passkey could not be added. Try again from the account page.")
            } catch ConsoleError.codeRefused {
                throw ConsoleFailure.invalid("The code from your authenticator is wrong or was already used: wait for the next one and try again from the account page.")
            } catch ConsoleError.confirmationNeeded {
                throw ConsoleFailure.confirmationNeeded(returnTo: "/account")
            }
            return ConsolePage.redirect(to: "/account?done=passkey-added")
        }
        on(site, .POST, "/account/passkeys/:passkeyId/remove") { request, context, session in
            _ = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/account")
            do {
                try await console.removePasskey(session, id: context.parameter("passkeyId"), clientAddress: context.clientAddress)
            } catch ConsoleError.notFound {
                throw ConsoleFailure.notFound
            } catch ConsoleError.confirmationNeeded {
                throw ConsoleFailure.confirmationNeeded(returnTo: "/account")
            }
            return ConsolePage.redirect(to: "/account?done=passkey-removed")
        }
    }

    /// The console as the browser reached it: its configured origin, else the request's own
    /// host (which the Origin check has matched for every form) by either scheme, since a TLS
    /// proxy in front may have answered the browser.
    static func relyingParty(_ request: Request, origin: String?) -> WebAuthnRelyingParty {
        if let origin { return WebAuthnRelyingParty(id: URLComponents(string: origin)?.host ?? "localhost", origins: [origin]) }
        let host = request.headers["Host"] ?? "localhost"
        return WebAuthnRelyingParty(id: URLComponents(string: "http://" + host)?.host ?? "localhost", origins: ["http://" + host, "https://" + host])
    }

    /// The sign-in page's passkey options: a challenge of its own, any of the operator's passkeys.
    static func signInOptions(_ console: ConsoleEngine, _ request: Request, origin: String?) -> DatacoveWire.PasskeyRequestOptions {
        DatacoveWire.PasskeyRequestOptions(
            challenge: Base64URL.encode(console.passkeySignInChallenge()), rpId: relyingParty(request, origin: origin).id,
            timeout: Int(ConsoleEngine.passkeyChallengeLifetime * 1000), allowCredentials: [])
    }

    /// The browser's `PublicKeyCredential.toJSON()` of a registration.
    static func registration(_ text: String) throws -> WebAuthnRelyingParty.Registration {
        guard text.utf8.count <= 64 * 1024, let wire = try? JSONDecoder().decode(DatacoveWire.PasskeyRegistrationCredential.self, from: Data(text.utf8)),
            let rawID = Base64URL.decode(wire.rawId), let clientData = Base64URL.decode(wire.response.clientDataJSON),
            let attestation = Base64URL.decode(wire.response.attestationObject)
        else { throw ConsoleFailure.invalid("The browser's passkey could not be read.") }
        return WebAuthnRelyingParty.Registration(id: wire.id, rawID: rawID, type: wire.type, clientDataJSON: clientData, attestationObject: attestation)
    }

    /// The browser's `PublicKeyCredential.toJSON()` of an assertion.
    static func assertion(_ text: String) -> WebAuthnRelyingParty.Assertion? {
        guard text.utf8.count <= 64 * 1024, let wire = try? JSONDecoder().decode(DatacoveWire.PasskeyAssertionCredential.self, from: Data(text.utf8)),
            let rawID = Base64URL.decode(wire.rawId), let clientData = Base64URL.decode(wire.response.clientDataJSON),
            let authData = Base64URL.decode(wire.response.authenticatorData), let signature = Base64URL.decode(wire.response.signature)
        else { return nil }
        return WebAuthnRelyingParty.Assertion(
            id: wire.id, rawID: rawID, type: wire.type, clientDataJSON: clientData, authenticatorData: authData, signature: signature,
            userHandle: wire.response.userHandle.flatMap { Base64URL.decode($0) })
    }
}
