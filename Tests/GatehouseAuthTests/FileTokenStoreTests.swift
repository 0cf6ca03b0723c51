import Foundation
import GatehouseTestEvents
import Testing
@testable import GatehouseAuth
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The file store: private, atomic, and a lock that makes two processes refresh one token once.
@Suite struct FileTokenStoreTests {
    @Test func writesAPrivateFileAtomicallyAndReadsItBack() throws {
        let directory = try temporaryDirectory()
        let store = FileTokenStore(url: directory.appendingPathComponent("group/tokens.json"))
        #expect(try store.read() == nil)
        try store.write(storedPair())
        try store.write(storedPair("a2", "r2"))
        #expect(try store.read() == storedPair("a2", "r2"))
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // No temporary files are left behind by the replace.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.deletingLastPathComponent().path) == ["tokens.json"])
        try store.clear()
        try store.clear()
        #expect(try store.read() == nil)
    }

    @Test func aDamagedFileIsAnErrorNotASignOut() throws {
        let directory = try temporaryDirectory()
        let store = FileTokenStore(url: directory.appendingPathComponent("tokens.json"))
        try Data("{not json".utf8).write(to: store.url)
        #expect(throws: TokenStoreError.self) { try store.read() }
    }

    @Test func theLockExcludesASecondStoreOnTheSameFile() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("tokens.json")
        let first = FileTokenStore(url: file)
        let refused = Latch()
        let second = FileTokenStore(url: file).signalling(contention: refused)
        let gate = Gate()
        let order = OrderLog()
        let holder = Task {
            try await first.withLock {
                order.append("first in")
                await gate.wait()
                order.append("first out")
            }
        }
        await order.until(["first in"])
        let waiter = Task { try await second.withLock { order.append("second in") } }
        // Until the second store has tried the lock and found it held; the expectations below judge the rest.
        _ = await refused.wait()
        #expect(order.entries == ["first in"])
        await gate.open()
        try await holder.value
        try await waiter.value
        #expect(order.entries == ["first in", "first out", "second in"])
        let mode = try FileManager.default.attributesOfItem(atPath: first.lockURL.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func twoProcessesRefreshingOneFileSpendTheTokenOnce() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("tokens.json")
        try FileTokenStore(url: file).write(storedPair())
        let transport = RouteTransport { request in
            if apiPath(request) == "auth/v1/refresh" {
                // Slow enough that the other process is surely waiting on the lock meanwhile.
                try await Task.sleep(for: .milliseconds(100))
                return .init(status: 200, body: pairJSON("a2", "r2"))
            }
            return bearer(request) == "a2" ? .init(status: 200, body: profileJSON) : .init(status: 401, body: errorJSON(401, code: nil))
        }
        let clock = ManualClock()
        // Each "process" has its own store value (its own file descriptors) and its own session manager.
        let app = makeClient(store: FileTokenStore(url: file), transport: transport, clock: clock)
        let appExtension = makeClient(store: FileTokenStore(url: file), transport: transport, clock: clock)
        clock.advance(3600)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let client = index.isMultiple(of: 2) ? app : appExtension
                group.addTask { _ = try await client.profile() }
            }
            try await group.waitForAll()
        }
        #expect(transport.count("auth/v1/refresh") == 1)
        #expect(transport.count("users/v1/profile") == 20)
        #expect(try FileTokenStore(url: file).read()?.refreshToken == "r2")
    }

    @Test func aWaitingProcessRereadsAndFindsTheRotatedPair() async throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("tokens.json")
        let other = FileTokenStore(url: file)
        try other.write(storedPair())
        let transport = rotatingServer()
        let clock = ManualClock()
        let waiting = Latch()
        let client = makeClient(store: FileTokenStore(url: file).signalling(contention: waiting), transport: transport, clock: clock)
        clock.advance(3600)
        let gate = Gate()
        let locked = OrderLog()
        // The other process holds the lock mid-refresh and writes its rotated pair before letting go.
        let holder = Task {
            try await other.withLock {
                locked.append("held")
                await gate.wait()
                try other.write(storedPair("a2", "r2", receivedAt: clock.now))
            }
        }
        await locked.until(["held"])
        let call = Task { try await client.profile() }
        // Until the client, having read the old pair, waits for the lock the other process holds.
        _ = await waiting.wait()
        await gate.open()
        try await holder.value
        _ = try await call.value
        #expect(transport.paths == ["users/v1/profile"])
        #expect(transport.requests.map(bearer) == ["a2"])
    }
}

extension FileTokenStore {
    /// This store, signalling `latch` each time its `withLock` finds the lock held by another store.
    func signalling(contention latch: Latch) -> FileTokenStore {
        var store = self
        store.lockContended = { latch.signal() }
        return store
    }
}

/// A thread-safe list of events, to check the order things happened in and to await one.
final class OrderLog: @unchecked Sendable {
    private let items = AwaitableList<String>()
    var entries: [String] { items.all }
    func append(_ item: String) { items.append(item) }

    /// Returns once the entries are `expected`, failing after five seconds rather than hanging the suite.
    func until(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async {
        await items.until(sourceLocation: sourceLocation) { $0 == expected }
    }
}
