import Foundation
import GatehouseConsoleEngine
import GatehouseCrypto
import GatehouseFormats
import GatehouseHTML
import GatehouseHTTP
import GatehouseQRCode

extension ConsoleSite {
    func registerOperators(on site: RouteGroup) {
        let console = console
        on(site, .GET, "/operators") { request, _, session in
            let operators = try await console.operators()
            let admin = session.account.role == .admin
            let rows = operators.map { entry -> [HTML] in
                let remove: HTML = admin && entry.account.id != session.account.id
                    ? ConsolePage.form(action: "/operators/\(entry.account.id)/remove", session: session, button: "Remove", confirm: "Remove this operator?")
                    : .empty
                return ["\(entry.account.email)", "\(entry.account.role.rawValue)", "\(ConsolePage.time(entry.account.createdAt))",
                        "\(entry.lockedUntil.map { "locked until " + ConsolePage.time($0) } ?? "—")", remove]
            }
            let create: HTML = admin ? """
                <section><h2>Add an operator</h2>\(ConsolePage.form(action: "/operators", session: session,
                    ConsolePage.field("Email", name: "email", type: "email")
                    + "<label>Role <select name=\"role\"><option>viewer</option><option>admin</option></select></label>",
                    button: "Add operator"))\
                <p class="muted">A password and an authenticator code are made for the new operator and shown once, to you.</p></section>
                """ : .empty
            return ConsolePage.render("Operators", session: session, current: "/operators", notice: Self.notice(request),
                ConsolePage.table(["Email", "Role", "Created", "Lockout", ""], rows) + create)
        }
        // The new operator's password and second factor are on this answer and nowhere else.
        on(site, .POST, "/operators", role: .admin) { request, context, session in
            let form = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/operators")
            guard let role = ConsoleOperator.Role(rawValue: form["role"]) else { throw ConsoleFailure.invalid("The role must be viewer or admin.") }
            let password = Base64URL.encode(SystemRandom().bytes(18))
            let created: NewConsoleOperator
            do {
                created = try await console.createOperator(email: form["email"], role: role, password: password, actor: session.account.id, clientAddress: context.clientAddress)
            } catch ConsoleError.invalidEmail {
                throw ConsoleFailure.invalid("That is not an email address.")
            } catch ConsoleError.emailTaken {
                throw ConsoleFailure.invalid("An operator with this email exists.")
            } catch ConsoleError.busy {
                throw ConsoleFailure.tooManyRequests(retryAfter: 5)
            }
            let qr = QRCode(created.totpURI)?.svg(size: 220, title: "Authenticator code for \(created.account.email)") ?? .empty
            return ConsolePage.render("Operator added", session: session, current: "/operators", """
                <p>Give these to \(created.account.email) now: they are shown once and never again.</p>\
                <dl class="facts"><div><dt>Password</dt><dd><output class="secret" data-copy>\(password)</output></dd></div></dl>\
                <figure class="qr">\(qr)<figcaption>Scan with an authenticator app, or enter <code>\(created.totpURI)</code></figcaption></figure>\
                <p><a href="/operators">Back to the operators</a></p>
                """)
        }
        on(site, .POST, "/operators/:operatorId/remove", role: .admin) { request, context, session in
            _ = try ConsoleForm(request, session: session)
            try requireConfirmation(session, returnTo: "/operators")
            do {
                try await console.removeOperator(id: context.parameter("operatorId"), by: session, clientAddress: context.clientAddress)
            } catch ConsoleError.cannotRemoveSelf {
                throw ConsoleFailure.invalid("You cannot remove yourself.")
            } catch ConsoleError.notFound {
                throw ConsoleFailure.notFound
            }
            return ConsolePage.redirect(to: "/operators?done=operator-removed")
        }
    }
}
