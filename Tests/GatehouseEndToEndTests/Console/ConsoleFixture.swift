import Foundation
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing

/// A live server with its console listening on a port of its own, a manual clock, and two
/// operators: an admin and a viewer, each with their password and TOTP URI.
struct ConsoleFixture {
    struct Operator {
        let email: String
        let password: String
        let totpURI: String
        let id: String
    }

    let live: LiveServer
    let clock: ManualClock
    let admin: Operator
    let viewer: Operator
    var console: ConsoleEngine { live.app.console! }

    static func start(_ kind: TestDatabaseKind) async throws -> ConsoleFixture {
        let clock = ManualClock(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 30).rounded(.down) * 30))
        // A cheap password cost: many servers hash at once in the suite, on two threads in all.
        let live = try await LiveServer.start(kind, clock: clock) {
            $0.consolePort = 0
            $0.consolePasswordCost = 10
        }
        guard let console = live.app.console else { throw TestSetupError("no console engine") }
        func make(_ email: String, _ role: ConsoleOperator.Role) async throws -> Operator {
            let password = "correct horse \(role.rawValue) staple"
            let made = try await console.createOperator(email: email, role: role, password: password)
            return Operator(email: email, password: password, totpURI: made.totpURI, id: made.account.id)
        }
        return ConsoleFixture(
            live: live, clock: clock, admin: try await make("admin@ops.example", .admin), viewer: try await make("viewer@ops.example", .viewer))
    }

    /// A visitor signed in as `account` (codes are single use: the clock moves a step first).
    func signedIn(_ account: Operator) async throws -> ConsoleVisitor {
        clock.advance(by: 30)
        let visitor = try ConsoleVisitor(live)
        let page = try await visitor.signIn(email: account.email, password: account.password, totpURI: account.totpURI, at: clock.now)
        guard page.status == 303, page.location == "/" else { throw TestSetupError("sign-in answered \(page.status): \(page.body)") }
        return visitor
    }

    func stop() async { await live.stop() }

    /// Runs `body` with a fixture and stops its server whatever `body` does, so that a failing
    /// test leaves no listener behind with requests suspended.
    static func run(_ kind: TestDatabaseKind, _ body: (ConsoleFixture) async throws -> Void) async throws {
        let fixture = try await start(kind)
        do {
            try await body(fixture)
        } catch {
            Issue.record("the server's last log lines: \(fixture.live.logs.lines.suffix(20).joined(separator: "\n"))")
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }
}
