import Foundation
import GatehouseConsoleEngine
import GatehouseCrypto
import GatehouseFormats
import GatehouseHTML
import GatehouseHTTP
import GatehouseWire

extension ConsoleSite {
    /// The cookie that carries the sign-in form's token before there is a session (double
    /// submit: a site that cannot read it cannot put it in a form).
    static let preSessionCookie = "gatehouse-console-form"

    func registerSignIn(on site: RouteGroup) {
        let (console, cookie, signIns, environment, origin) = (console, cookie, signIns, environment, origin)
        site.get("/sign-in", .async { request, _ in
            if let token = cookie.token(in: request.headers), try await console.session(token: token) != nil { return ConsolePage.redirect(to: "/") }
            return Self.signInPage(token: Base64URL.encode(environment.random.bytes(24)), secure: cookie.secure, passkey: Self.signInOptions(console, request, origin: origin))
        })
        site.post("/sign-in", maxBodySize: 8 * 1024, .async { request, context in
            let presented = ConsoleCookie.value(Self.preSessionCookie, in: request.headers) ?? ""
            guard presented.utf8.count >= 20 else {
                throw ConsoleFailure.forbidden("The sign-in form is out of date: reload the page and try again.")
            }
            let form = try ConsoleForm(request, token: presented)
            try signIns.count(context.clientAddress)
            let retry = Base64URL.encode(environment.random.bytes(24))
            let passkey = Self.signInOptions(console, request, origin: origin)
            func page(_ status: Int, _ problem: String) -> Response {
                Self.signInPage(token: retry, secure: cookie.secure, status: status, problem: problem, passkey: passkey)
            }
            // A passkey's assertion (console.js put it in the passkey form) stands for the code;
            // that form sent without one (no script ran) is no failed sign-in.
            let second: ConsoleEngine.SecondFactor
            if form["second"] == "passkey" {
                guard !form["assertion"].isEmpty else { return page(400, "This browser did not answer with a passkey: sign in with the code instead.") }
                second = Self.assertion(form["assertion"]).map { .passkey($0, Self.relyingParty(request, origin: origin)) } ?? .code("")
            } else {
                second = .code(form["code"])
            }
            do {
                let account = try await console.signIn(email: form["email"], password: form.fields["password"] ?? "", second: second, clientAddress: context.clientAddress)
                let opened = try await console.openSession(for: account, clientAddress: context.clientAddress)
                var response = ConsolePage.redirect(to: "/")
                response.headers.add("Set-Cookie", cookie.setting(opened.token))
                response.headers.add("Set-Cookie", "\(Self.preSessionCookie)=; Path=/sign-in; Max-Age=0; HttpOnly; SameSite=Strict")
                return response
            } catch ConsoleError.locked(let until) {
                return page(403, "Too many failed sign-ins: try again after \(ConsolePage.time(until)).")
            } catch ConsoleError.busy {
                return page(503, "The server is busy checking passwords: try again in a moment.")
            } catch ConsoleError.signInRefused {
                return page(401, "The email, password or code is wrong.")
            }
        })
        on(site, .POST, "/sign-out") { request, context, session in
            _ = try ConsoleForm(request, session: session)
            try await console.closeSession(session, clientAddress: context.clientAddress)
            var response = ConsolePage.redirect(to: "/sign-in")
            response.headers.add("Set-Cookie", cookie.clearing)
            return response
        }
        on(site, .GET, "/confirm") { request, _, session in
            let next = Self.localPath(request.queryValue("next"))
            return ConsolePage.render("Confirm it is you", session: session, """
                <p>Type your password again to go on: destructive actions ask for it every few minutes.</p>\
                \(ConsolePage.form(action: "/confirm", session: session,
                    ConsolePage.field("Password", name: "password", type: "password", extra: " autocomplete=\"current-password\" autofocus")
                    + "<input type=\"hidden\" name=\"next\" value=\"\(next)\">", button: "Confirm"))
                """)
        }
        on(site, .POST, "/confirm") { request, context, session in
            let form = try ConsoleForm(request, session: session)
            let next = Self.localPath(form["next"])
            do {
                try await console.confirmPassword(session, password: form.fields["password"] ?? "", clientAddress: context.clientAddress)
            } catch ConsoleError.signInRefused {
                throw ConsoleFailure.invalid("That password is wrong.")
            } catch ConsoleError.busy {
                throw ConsoleFailure.tooManyRequests(retryAfter: 5)
            } catch ConsoleError.locked {
                var response = ConsolePage.redirect(to: "/sign-in")
                response.headers.add("Set-Cookie", cookie.clearing)
                return response
            }
            return ConsolePage.redirect(to: next + (next.contains("?") ? "&" : "?") + "done=confirmed")
        }
    }

    static func signInPage(token: String, secure: Bool, status: Int = 200, problem: String? = nil, passkey: DatacoveWire.PasskeyRequestOptions? = nil) -> Response {
        let problemMarkup: HTML = problem.map { "<p class=\"problem\" role=\"alert\">\($0)</p>" } ?? .empty
        // With JavaScript, a passkey instead of the code: console.js shows the form when the
        // browser has passkeys, asks the authenticator and puts its answer in the form.
        var passkeyForm = HTML.empty
        if let passkey, let json = try? JSONEncoder().encode(passkey) {
            passkeyForm = """
                <section class="passkey" hidden><h2>Or with a passkey</h2>\
                <form method="post" action="/sign-in" class="sign-in" data-passkey-get="\(String(decoding: json, as: UTF8.self))">\
                <input type="hidden" name="csrf" value="\(token)"><input type="hidden" name="second" value="passkey"><input type="hidden" name="assertion" value="">\
                \(ConsolePage.field("Email", name: "email", type: "email", extra: " autocomplete=\"username webauthn\""))\
                \(ConsolePage.field("Password", name: "password", type: "password", extra: " autocomplete=\"current-password\""))\
                <button type="submit">Sign in with a passkey</button></form></section>
                """
        }
        var response = ConsolePage.render("Sign in", session: nil, status: status, """
            \(problemMarkup)<form method="post" action="/sign-in" class="sign-in"><input type="hidden" name="csrf" value="\(token)">\
            \(ConsolePage.field("Email", name: "email", type: "email", extra: " autocomplete=\"username\" autofocus"))\
            \(ConsolePage.field("Password", name: "password", type: "password", extra: " autocomplete=\"current-password\""))\
            \(ConsolePage.field("Code from your authenticator", name: "code", extra: " inputmode=\"numeric\" autocomplete=\"one-time-code\" pattern=\"[0-9 ]{6,8}\""))\
            <button type="submit">Sign in</button></form>\(passkeyForm)
            """)
        response.headers.add("Set-Cookie", "\(preSessionCookie)=\(token); Path=/sign-in; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")")
        return response
    }

    /// A path of this console to go back to: one slash, no scheme or host, else the overview.
    static func localPath(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "/" }
        return text
    }
}
