import Foundation
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseServerTesting
import GatehouseTesting
import Testing
@testable import GatehouseServer

/// A 500 a user reports by its request id can be found in the log; numbers and codes in the
/// same line stay masked. The requests are answered in process: the log is the subject, not
/// the socket.
@Suite struct ErrorLogTests {
    /// A 500 the transport renders itself (an admin handler's unexpected error) is logged
    /// with the request id as a field of its own, kept as it is.
    @Test(arguments: TestDatabaseKind.available)
    func transportErrorsCarryTheRequestIDUnmasked(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        try await live.app.environment.database.write { db in try db.executeScript("DROP TABLE outbox_messages") }
        var request = URLRequest(url: URL(string: live.credentials.baseURL + "/admin/v1/outbox?to=4165550199")!)
        request.setValue("Bearer \(live.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        let (_, http) = try await live.transport.send(request)
        let id = try #require(http.value(forHTTPHeaderField: "X-Request-Id"))
        #expect(http.statusCode == 500)
        let errors = live.logs.lines.filter { $0.contains(#""level":"error""#) }
        #expect(errors.contains { $0.contains(#""requestId":"\#(id)""#) && $0.contains("unhandled error") }, "\(errors)")
        await live.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func aServerErrorIsLoggedUnderTheRequestIDTheClientWasGiven(_ kind: TestDatabaseKind) async throws {
        let live = try await LiveServer.start(kind, inProcess: true)
        // Break storage under the running server, so that the next sign-in request is a 500.
        try await live.app.environment.database.write { db in try db.executeScript("DROP TABLE rate_counters") }
        var request = URLRequest(url: live.baseURL.appendingPathComponent("api/auth/v1/mobile/verify-otp"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(try #require(live.credentials.apiKeys?.sorted { $0.key < $1.key }.first?.value), forHTTPHeaderField: "X-API-Key")
        request.httpBody = Data(#"{"phoneNumber":"+14165550199","channel":"sms","otp":"123456"}"#.utf8)
        let (_, http) = try await live.transport.send(request)
        let id = try #require(http.value(forHTTPHeaderField: "X-Request-Id"))
        let errors = live.logs.lines.filter { $0.contains(#""level":"error""#) }
        #expect(http.statusCode == 500, "\(errors)")
        #expect(errors.contains { $0.contains(id) }, "request \(id) is not in \(errors)")
        #expect(!errors.joined().contains("4165550199") && !errors.joined().contains("123456"))
        await live.stop()
    }

    /// The start-up line keeps its port: a digit run, which the log masks everywhere else.
    @Test func theListeningLineKeepsItsPort() async throws {
        let live = try await LiveServer.start()
        let listening = try #require(live.logs.lines.first { $0.contains(#""message":"listening""#) })
        #expect(listening.contains(":\(live.port)\""), "\(listening)")
        await live.stop()
    }
}
