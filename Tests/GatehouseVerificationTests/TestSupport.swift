import Foundation
import GatehouseTestEvents
import GatehouseClientCore
import Testing
@testable import GatehouseVerification
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Returns queued replies in order and records every request; throws once the queue is empty.
final class MockTransport: Transport, @unchecked Sendable {
    enum Reply {
        case response(status: Int, body: Data, headers: [String: String])
        case failure(any Error)
    }

    private let lock = NSLock()
    private var replies: [Reply]
    private var recorded: [URLRequest] = []

    init(_ replies: [Reply] = []) { self.replies = replies }

    /// A transport answering once with `json` and `status`.
    convenience init(status: Int, json: String, headers: [String: String] = [:]) {
        self.init([.response(status: status, body: Data(json.utf8), headers: headers)])
    }

    /// A transport failing once with `error`.
    convenience init(error: any Error) { self.init([.failure(error)]) }

    var requests: [URLRequest] { locked { recorded } }

    func enqueue(status: Int, json: String, headers: [String: String] = [:]) {
        locked { replies.append(.response(status: status, body: Data(json.utf8), headers: headers)) }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let reply: Reply? = locked {
            recorded.append(request)
            return replies.isEmpty ? nil : replies.removeFirst()
        }
        switch reply {
        case nil:
            throw APIError.unexpectedResponse("mock transport has no reply queued")
        case .failure(let error):
            throw error
        case .response(let status, let body, let headers):
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            return (body, response)
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Suspends in `send` until the calling task is cancelled, then throws `cancellationError`.
final class SuspendingTransport: Transport, @unchecked Sendable {
    private let suspended = Latch()
    let cancellationError: any Error

    init(throwing cancellationError: any Error = URLError(.cancelled)) {
        self.cancellationError = cancellationError
    }

    var didSuspend: Bool { suspended.isSignalled }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        suspended.signal()
        do {
            // A server that never answers: only the caller's cancellation ends this.
            try await Task.sleep(for: .seconds(600))
        } catch {
            throw cancellationError
        }
        throw APIError.unexpectedResponse("SuspendingTransport was never cancelled")
    }

    /// Waits (up to a minute) until a request is in flight.
    func waitUntilSuspended() async {
        _ = await suspended.wait(timeout: .seconds(60))
    }
}


/// Collects logged lines.
final class StubLogger: VerificationLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    func log(_ message: String) {
        lock.lock()
        collected.append(message)
        lock.unlock()
    }
}

enum TestSupport {
    static let baseURL = URL(string: "https://verify.example.com")!
    static let defaultAuth = AuthorizationMethod.basic(appKey: "key", secret: "secret")

    static func client(
        _ transport: any Transport, baseURL: URL = baseURL, auth: AuthorizationMethod = defaultAuth,
        configuration: Configuration = .init()
    ) -> VerificationClient {
        VerificationClient(baseURL: baseURL, auth: auth, configuration: configuration, transport: transport)
    }

    /// A client answering once with `json`, and its transport.
    static func client(status: Int, json: String, headers: [String: String] = [:]) -> (VerificationClient, MockTransport) {
        let transport = MockTransport(status: status, json: json, headers: headers)
        return (client(transport), transport)
    }

    /// The parsed request body.
    static func body(_ request: URLRequest) throws -> [String: Any] {
        let data = try #require(request.httpBody)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The `data` object of the first recorded request.
    static func firstData(_ transport: MockTransport) throws -> [String: Any] {
        try data(try #require(transport.requests.first))
    }

    /// The body of the first recorded request.
    static func firstBody(_ transport: MockTransport) throws -> Data {
        try #require(transport.requests.first?.httpBody)
    }

    /// The `data` object of the request body.
    static func data(_ request: URLRequest) throws -> [String: Any] {
        try #require(try body(request)["data"] as? [String: Any])
    }

    /// JSON re-serialised with sorted keys, so two documents compare by content, not by text.
    static func canonical(_ data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let sorted = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: sorted, as: UTF8.self)
    }

    static func canonical(_ json: String) throws -> String { try canonical(Data(json.utf8)) }

    /// A start handle with defaults.
    static func handle(
        id: String = "11111111-1111-4111-8111-111111111111", destination: String = "+15551234567",
        method: DeliveryMethod = .sms, expiresAt: Date = Date().addingTimeInterval(300)
    ) -> Verification {
        Verification(id: id, destination: destination, deliveryMethod: method, expiresAt: expiresAt)
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text)!
    }
}
