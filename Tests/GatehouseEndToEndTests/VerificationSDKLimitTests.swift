import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseServerTesting
import GatehouseTesting
import GatehouseVerification
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seed 001's thrown errors over a live server: every 429 with its `Retry-After`, 401, 402,
/// cancellation and timeout; and the debug logger's redaction.
@Suite struct VerificationSDKLimitTests {
    /// The rate-limit window, long enough that a test never straddles two windows.
    static let window = 3600

    /// The 429 `body` throws: its first item's typed code and `retryAfter`.
    func limit<T>(_ body: () async throws -> T) async -> (known: APIErrorCode?, retryAfter: TimeInterval?)? {
        guard let failure = (await sdkError(body) as? APIError)?.sdkUnexpected, failure.code == 429 else { return nil }
        return (failure.item?.known, failure.item?.retryAfter)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aRepeatedStartIsInCooldown(_ kind: TestDatabaseKind) async throws {
        // A stopped clock: a loaded run may take longer than the cooldown between the two starts.
        let harness = try await VerificationHarness.start(
            kind, settings: ["minimumAuth": "basic", "cooldownSeconds": 30], clock: ManualClock(Date(timeIntervalSince1970: Double(Int64(Date().timeIntervalSince1970)))))
        let client = harness.sdkClient(.basic)
        #expect(try await client.start(destination: "+447400123501", method: .sms).status == .pending)
        let first = try await harness.sdkNextMessage(to: "447400123501")
        let hit = try #require(await limit { try await client.start(destination: "+44 7400 123501", method: .sms) })
        #expect(hit.known == .destinationInCooldown)
        #expect((1...30).contains(hit.retryAfter ?? 0))
        #expect(try await harness.sdkMessages(to: "447400123501") == [first])
        #expect(try await client.start(destination: "+447400123502", method: .sms).status == .pending)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func tooManyRequestsFromOneAddress(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"]) {
            $0.verificationRatePerIP = 3
            $0.verificationRateWindow = Self.window
        }
        let client = harness.sdkClient(.basic)
        let started = try await client.start(destination: "+447400123503", method: .sms)
        _ = try await client.status(started)
        _ = try await client.status(number: "+447400123503")
        let hit = try #require(await limit { try await client.status(started) })
        #expect(hit.known == .rateLimitPerIP && (1...Double(Self.window)).contains(hit.retryAfter ?? 0))
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func wrongSecretsAreUnauthorizedThenLimited(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"]) {
            $0.verificationRateFailedAuth = 2
            $0.verificationRateWindow = Self.window
        }
        let intruder = harness.sdkClient(.basic, secret: "not-the-secret")
        for _ in 1...2 {
            #expect(await sdkError { try await intruder.start(destination: "+447400123504", method: .sms) } as? APIError == .unauthorized)
        }
        // The address is now limited, even with the right secret.
        let hit = try #require(await limit { try await harness.sdkClient(.basic).start(destination: "+447400123504", method: .sms) })
        #expect(hit.known == .rateLimitFailedAuth && (1...Double(Self.window)).contains(hit.retryAfter ?? 0))
        #expect(try await harness.sdkMessages(to: "447400123504").isEmpty)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func tooManyRequestsForOneAccount(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic"]) {
            $0.verificationRatePerAccount = 2
            $0.verificationRateWindow = Self.window
        }
        let client = harness.sdkClient(.basic)
        let started = try await client.start(destination: "+447400123505", method: .sms)
        _ = try await client.status(started)
        let hit = try #require(await limit { try await client.status(started) })
        #expect(hit.known == .rateLimitPerAccount && (1...Double(Self.window)).contains(hit.retryAfter ?? 0))
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func tooManyPublicStartsForOneAccount(_ kind: TestDatabaseKind) async throws {
        let receiver = try CallbackReceiver()
        defer { receiver.stop() }
        let harness = try await VerificationHarness.start(kind, settings: ["callbackUrl": receiver.url]) {
            $0.verificationRatePublicPerAccount = 1
            $0.verificationRateWindow = Self.window
        }
        receiver.secret = harness.secret
        receiver.appKey = harness.app.appKey
        let client = harness.sdkClient(.public)
        #expect(try await client.start(destination: "+447400123506", method: .sms).status == .pending)
        let hit = try #require(await limit { try await client.start(destination: "+447400123507", method: .sms) })
        #expect(hit.known == .rateLimitPublicPerAccount && (1...Double(Self.window)).contains(hit.retryAfter ?? 0))
        #expect(receiver.received.count == 1, "the limited start never reached the callback")
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func theDailyVolumeLimitEndsTheFlow(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "dailyLimit": 1])
        let client = harness.sdkClient(.basic)
        #expect(try await client.start(destination: "+447400123508", method: .sms).status == .pending)
        let hit = try #require(await limit { try await client.start(destination: "+447400123509", method: .callout) })
        #expect(hit.known == .volumeLimitReached && (1...86_400).contains(hit.retryAfter ?? 0))
        #expect(try await harness.sdkMessages(to: "447400123509").isEmpty)
        await harness.stop()
    }

    @Test(arguments: TestDatabaseKind.available)
    func authenticationAndBalanceFailuresAreTypedErrors(_ kind: TestDatabaseKind) async throws {
        let harness = try await VerificationHarness.start(kind, settings: ["minimumAuth": "basic", "smsFee": "1000.00"])
        let client = harness.sdkClient(.basic)
        let wrongSecret = harness.sdkClient(.basic, secret: "not-the-secret")
        #expect(await sdkError { try await wrongSecret.start(destination: "+447400123510", method: .callout) } as? APIError == .unauthorized)
        #expect(await sdkError { try await wrongSecret.status(number: "+447400123510") } as? APIError == .unauthorized)
        // Public authentication ranks below this application's minimum.
        let belowMinimum = harness.sdkClient(.public)
        #expect(await sdkError { try await belowMinimum.start(destination: "+447400123510", method: .callout) } as? APIError == .unauthorized)
        #expect(await sdkError { try await client.start(destination: "+447400123510", method: .sms) } as? APIError == .insufficientBalance)
        #expect(try await harness.sdkMessages(to: "447400123510").isEmpty)
        // The callout fee is still covered.
        #expect(try await client.start(destination: "+447400123510", method: .callout).status == .pending)
        await harness.stop()
    }

    // The limit only catches a hang: under a full parallel run the server alone can take a minute to start.
    @Test(.timeLimit(.minutes(3))) func cancellingTheCallingTaskThrowsCancellationError() async throws {
        let backend = try SilentBackend()
        defer { backend.stop() }
        // The server would wait 60 s for the silent callback: an answer well before that is the
        // client's own timeout, with room for a loaded machine's late timers.
        let harness = try await VerificationHarness.start(settings: ["callbackUrl": backend.url]) { $0.verificationCallbackTimeout = 60 }
        let client = harness.sdkClient(.public)
        let task = Task { try await client.start(destination: "+447400123511", method: .sms) }
        // The start is in flight once the server is waiting on the callback.
        await backend.waitForConnection()
        task.cancel()
        // Cancelled, not answered: the server's answer would have been a denied verification, never a CancellationError.
        await #expect(throws: CancellationError.self) { try await task.value }
        // The server still finishes the start it began: the dropped callback denies it.
        backend.stop()
        // The start's request ends once the server has written its answer to the closed connection.
        await harness.live.app.server.idle()
        let outcome = try await client.status(number: "+447400123511")
        #expect(outcome.status == .denied && outcome.reason == .deniedInvalidCallbackResponse)
        await harness.stop()
    }

    @Test func aRequestPastTheConfiguredTimeoutIsATransportError() async throws {
        let backend = try SilentBackend()
        defer { backend.stop() }
        let harness = try await VerificationHarness.start(settings: ["callbackUrl": backend.url]) { $0.verificationCallbackTimeout = 5 }
        let client = harness.sdkClient(.public, configuration: Configuration(timeout: 1))
        let began = Date()
        let error = await sdkError { try await client.start(destination: "+447400123512", method: .sms) }
        let elapsed = Date().timeIntervalSince(began)
        guard case .transport(let urlError)? = error as? APIError else {
            Issue.record("expected APIError.transport, got \(String(describing: error))")
            await harness.stop()
            return
        }
        #expect(urlError.code == .timedOut)
        #expect(elapsed >= 0.9 && elapsed < 30, "\(elapsed) s: the client's timeout, not the server's")
        backend.stop()
        await harness.stop()
    }

    @Test func theLoggerSeesOnlyRedactedLines() async throws {
        let harness = try await VerificationHarness.start(settings: ["minimumAuth": "basic"])
        let lines = SDKLogLines()
        let client = harness.sdkClient(.basic, configuration: Configuration(logger: lines))
        let started = try await client.start(destination: "+447400123513", method: .sms)
        let code = VerificationHarness.sdkCode(in: try await harness.sdkNextMessage(to: "447400123513").body)
        _ = await sdkError { try await try await client.verify(started, code: sdkWrong(code)) }
        #expect(try await client.verify(number: "+44 7400 123513", code: code, method: .sms).status == .verified)
        _ = try await client.status(started)
        _ = try await client.status(number: "+447400123513")
        let logged = lines.lines
        #expect(logged.count >= 10 && logged.count % 2 == 0)
        #expect(logged.allSatisfy { $0.hasPrefix("→ ") || $0.hasPrefix("← ") })
        #expect(logged.contains("← 201") && logged.contains("← 422") && logged.contains("← 200"))
        let uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        for line in logged {
            let outsideIDs = line.replacingOccurrences(of: uuid, with: "", options: .regularExpression)
            #expect(outsideIDs.range(of: "[0-9]{4,15}", options: .regularExpression) == nil, "\(line)")
            #expect(!line.contains("447400123513") && !line.contains("7400") && !line.contains(code), "\(line)")
        }
        // Verification ids stay readable; by-number paths are masked.
        #expect(logged.contains { $0.hasSuffix("/api/v1/verifications/\(started.id)") })
        #expect(logged.contains { $0.hasSuffix("/api/v1/verifications/by_number/«redacted-number»") })
        await harness.stop()
    }
}

/// A customer backend that accepts connections and never answers: a raw TCP listener on
/// 127.0.0.1 whose accepted sockets are held open until `stop()`.
final class SilentBackend: @unchecked Sendable {
    private let listener: Int32
    let port: UInt16
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var stopped = false
    private let connected = Latch()

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            _ = close(fd)
            throw TestSetupError("could not listen on 127.0.0.1")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop(fd) }
    }

    var url: String { "http://127.0.0.1:\(port)/cb/didww" }
    var connections: Int { lock.withLock { accepted.count } }

    /// Returns once the server has connected.
    func waitForConnection() async { await connected.wait() }

    private func acceptLoop(_ socket: Int32) {
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let kept = lock.withLock { () -> Bool in
                if stopped { return false }
                accepted.append(connection)
                return true
            }
            if kept { connected.signal() }
            if !kept {
                _ = close(connection)
                return
            }
        }
    }

    /// Refuses new connections and drops the held ones; safe to call twice.
    func stop() {
        let held = lock.withLock { () -> [Int32]? in
            if stopped { return nil }
            stopped = true
            defer { accepted = [] }
            return accepted
        }
        guard let held else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
        for connection in held {
            _ = shutdown(connection, Int32(SHUT_RDWR))
            _ = close(connection)
        }
    }
}
