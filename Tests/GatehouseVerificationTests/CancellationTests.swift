import Foundation
import GatehouseClientCore
import Testing
@testable import GatehouseVerification
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct CancellationTests {
    @Test(arguments: [URLError(.cancelled) as any Error, CancellationError() as any Error])
    func cancellingTheTaskThrowsCancellationError(transportError: any Error) async {
        let transport = SuspendingTransport(throwing: transportError)
        let client = TestSupport.client(transport)
        let task = Task { try await client.status(TestSupport.handle()) }
        await transport.waitUntilSuspended()
        #expect(transport.didSuspend)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func alreadyCancelledTaskSendsNothing() async {
        let transport = MockTransport(status: 200, json: Fixtures.startSMS)
        let client = TestSupport.client(transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.status(number: "+15551234567")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.isEmpty)
    }

    @Test func responseArrivingAfterCancellationIsDropped() async {
        let transport = CancellingTransport()
        let client = TestSupport.client(transport)
        let task = Task { try await client.verify(TestSupport.handle(), code: "123456") }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func configurationTimeoutDefaultsToThirtyAndCanBeOverridden() {
        #expect(Configuration().timeout == 30)
        #expect(Configuration().logger == nil)
        #expect(Configuration(timeout: 5).timeout == 5)
    }
}

/// Cancels the calling task, then answers 200 as if the response was already on its way.
private struct CancellingTransport: Transport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        withUnsafeCurrentTask { $0?.cancel() }
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        return (Data(Fixtures.verifiedSMS().utf8), response)
    }
}
