import Foundation
import GatehouseClientCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Drives the built `gatehouse` and `gatehouse-cli` binaries as an operator would, one test at a time.
@Suite(.serialized) struct ExecutableTests {
    /// The `gatehouse` executable built beside this test bundle.
    static var binary: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent("gatehouse")
    }

    static func run(_ arguments: [String], dataDir: String) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(path: binary, arguments: arguments, environment: ["GATEHOUSE_DATA_DIR": dataDir, "PATH": "/usr/bin:/bin"])
        let status = await child.wait(seconds: 60) ?? -1
        return (status, child.text)
    }

    @Test func serveShutsDownGracefullyOnSIGTERM() async throws {
        let dataDir = NSTemporaryDirectory() + "gatehouse-exe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let process = try ChildProcess(
            path: Self.binary, arguments: ["serve", "--port", "0", "--host", "127.0.0.1"],
            environment: ["GATEHOUSE_DATA_DIR": dataDir, "GATEHOUSE_ACCESS_LOG": "off", "GATEHOUSE_SHUTDOWN_GRACE": "15"])

        // The banner's last line is printed once the credentials are saved.
        _ = await process.line(within: 20) { $0.contains("These are saved in") }
        let credentialsPath = dataDir + "/dev-credentials.json"
        let credentials = try? JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: URL(fileURLWithPath: credentialsPath)))
        let base = try #require(credentials.flatMap { URL(string: $0.baseURL) })
        let port = UInt16(base.port!)
        let connections = try (0..<5).map { _ in try RawConnection(port: port) }
        // Ready, asked on a connection that then carries one of the five: MHD counts a request
        // complete before it reads the next head on its connection, so /readyz is out of the
        // count by the time that head's 100 Continue arrives (on a connection of its own, its
        // completion could still lag its answer on a loaded machine).
        #expect(await connections[0].exchange("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)

        // Requests in flight when SIGTERM arrives are finished; new connections are refused.
        let token = try #require(credentials?.adminToken)
        let body = #"{"name":"in flight"}"#
        let head = "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
        for connection in connections { connection.send(head) }
        // A 100 Continue says the server has read that head: the request is in flight.
        for connection in connections {
            #expect(await connection.response()?.status == 100)
            connection.send(String(body.prefix(8)))
        }
        process.signal(SIGTERM)
        let closed = await process.line(within: 20) { $0.contains("listener closed") }
        #expect(closed?.contains(#""inFlight":"5""#) == true, "\(closed ?? "no line")")
        #expect(throws: (any Error).self) { try RawConnection(port: port) }
        for connection in connections {
            connection.send(String(body.dropFirst(8)))
            let reply = await connection.response()
            #expect(reply?.status == 201)
            #expect(reply?.headers["connection"]?.lowercased() == "close")
        }
        let status = await process.wait(seconds: 30)
        #expect(status == 0)
        let log = process.text
        #expect(log.contains("shutting down") && log.contains("\"stopped\""))
        #expect(log.contains("Gatehouse is running in development mode"))

        // The database survived: the admin CLI and migrate see the same state.
        let list = try await Self.run(["admin", "tenant", "list"], dataDir: dataDir)
        #expect(list.status == 0 && list.output.contains("\"Development\""))
        #expect(list.output.components(separatedBy: "\"in flight\"").count - 1 == 5)
        let migrate = try await Self.run(["migrate"], dataDir: dataDir)
        #expect(migrate.status == 0 && migrate.output.contains("up to date"))
        let bad = try await Self.run(["admin", "key", "create", "--tenant", "nope", "--label", "x"], dataDir: dataDir)
        #expect(bad.status == 2 && bad.output.contains("no such tenant"))
    }

    @Test func anOperatorIsCreatedFromTheCommandLineWithItsSecondFactorShownOnce() async throws {
        let dataDir = NSTemporaryDirectory() + "gatehouse-exe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        func run(_ arguments: [String], password: String? = nil) async throws -> (status: Int32, output: String) {
            var environment = ["GATEHOUSE_DATA_DIR": dataDir, "PATH": "/usr/bin:/bin"]
            if let password { environment["OPERATOR_PASSWORD"] = password }
            let child = try ChildProcess(path: Self.binary, arguments: arguments, environment: environment)
            return (await child.wait(seconds: 60) ?? -1, child.text)
        }
        let made = try await run(["admin", "operator", "create", "--email", "ops@example.com", "--role", "admin"])
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.contains("\"totpURI\" : \"otpauth://totp/Gatehouse%20Console:ops%40example.com?secret="))
        #expect(made.output.contains("\"password\" : ") && made.output.contains("shown once"))
        let given = try await run(["admin", "operator", "create", "--email", "viewer@example.com"], password: "a long enough password")
        #expect(given.status == 0 && !given.output.contains("a long enough password") && given.output.contains("\"role\" : \"viewer\""))
        let again = try await run(["admin", "operator", "create", "--email", "OPS@example.com"])
        #expect(again.status == 2 && again.output.contains("an operator with this email exists"))
        let weak = try await run(["admin", "operator", "create", "--email", "b@example.com"], password: "short")
        #expect(weak.status == 2 && weak.output.contains("at least 12 characters"))
        let role = try await run(["admin", "operator", "create", "--email", "c@example.com", "--role", "root"])
        #expect(role.status == 2 && role.output.contains("--role must be viewer or admin"))
        // The development key that seals the second factors was made once, readable by its owner only.
        let attributes = try FileManager.default.attributesOfItem(atPath: dataDir + "/console-secret.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

}

