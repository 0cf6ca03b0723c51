import Foundation
import GatehouseClientCore
import GatehouseServerTesting
import GatehouseTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests cancelled while they finish end, one way or the other. URLSession's own async
/// API could deadlock here on Linux (its cancellation waits on the session's queue while that
/// queue waits to resume the cancelled task), and a cancel racing a task's end could trap;
/// a hung or crashed run is what this guards against.
@Suite struct TransportCancellationTests {
    // The limit is for a hang only: on a loaded 2-core machine a round trip can take a good part of a second.
    @Test(.timeLimit(.minutes(5))) func requestsCancelledAsTheyFinishAllEnd() async throws {
        let live = try await LiveServer.start()
        let transport = URLSessionTransport()
        let request = URLRequest(url: live.baseURL.appendingPathComponent("healthz"))
        var answered = 0
        var cancelled = 0
        for round in 0..<60 {
            let task = Task { try await transport.send(request) }
            try await Task.sleep(nanoseconds: UInt64(round % 15) * 200_000)
            task.cancel()
            switch await task.result {
            case .success(let (_, response)): answered += response.statusCode == 200 ? 1 : 0
            case .failure(let error): cancelled += error is CancellationError ? 1 : 0
            }
        }
        #expect(answered + cancelled == 60)
        // A group cancelled with requests in flight, as `waitForReport` does when one child finishes.
        let ended = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 { group.addTask { (try? await transport.send(request)) != nil } }
            group.cancelAll()
            return try await group.reduce(0) { total, _ in total + 1 }
        }
        #expect(ended == 32)
        await live.stop()
    }
}
