import Foundation
import GatehouseCore
import GatehouseOutbound

/// `gatehouse-bench signin --base URL --admin-token T --api-key K [--count N] [--connections C]`
///
/// OTP verification cannot be replayed by wrk: every verify needs a fresh code. This load
/// prepares `count` codes first (request-otp to distinct numbers, codes read from the
/// development outbox), then times only the verify-otp calls, `connections` at a time, and
/// prints one line that scripts/bench.sh turns into a table row. It calls on libcurl (one
/// multi handle, as wrk is one event loop): URLSession on Linux took as much of the two cores
/// as the server did, which measured the client.
enum SignInLoad {
    struct Options {
        var base = ""
        var adminToken = ""
        var apiKey = ""
        var count = 2000
        var connections = 64
    }

    static func run(_ arguments: [String]) -> Never {
        var options = Options()
        var words = arguments
        while words.count >= 2 {
            let (flag, value) = (words.removeFirst(), words.removeFirst())
            switch flag {
            case "--base": options.base = value
            case "--admin-token": options.adminToken = value
            case "--api-key": options.apiKey = value
            case "--count": options.count = Int(value) ?? options.count
            case "--connections": options.connections = Int(value) ?? options.connections
            default: fail("unknown option \(flag)")
            }
        }
        guard !options.base.isEmpty, !options.adminToken.isEmpty, !options.apiKey.isEmpty else {
            fail("signin needs --base, --admin-token and --api-key")
        }
        Task {
            do {
                try await measure(options)
                exit(0)
            } catch {
                fputs("gatehouse-bench signin: \(error)\n", stderr)
                exit(1)
            }
        }
        dispatchMain()
    }

    static func measure(_ options: Options) async throws {
        let session = CurlHTTPClient()
        // Distinct numbers, so the 60 s resend limit never applies.
        let phones = (0..<options.count).map { String(format: "+1416%07d", 2_000_000 + $0) }
        try await forEach(phones, width: options.connections) { phone in
            _ = try await post(session, options, "auth/v1/mobile/request-otp", ["phoneNumber": phone, "channel": "sms"])
        }
        // Each verify call is built before the clock starts, so the client's own JSON work
        // (Foundation's serialisation was about a sixth of the client's CPU) is not measured
        // against the server on the same cores.
        let verifications = RequestBook()
        try await forEach(phones, width: options.connections) { phone in
            let body = ["phoneNumber": phone, "otp": try await code(session, options, phone: phone), "channel": "sms"]
            verifications.set(phone, try request(options, "auth/v1/mobile/verify-otp", body))
        }
        // For a profiler attached to the server: the timed phase starts now.
        fputs("signin: verifying\n", stderr)
        let timings = Timings()
        let started = Date()
        try await forEach(phones, width: options.connections) { phone in
            let begin = Date()
            let status = try await session.send(try verifications.get(phone)).1.statusCode
            timings.add(Date().timeIntervalSince(begin), ok: status == 200)
        }
        let elapsed = Date().timeIntervalSince(started)
        let sorted = timings.values.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        print(String(
            format: "SIGNIN requests=%d seconds=%.2f rps=%.2f p50_ms=%.2f p99_ms=%.2f non2xx=%d",
            sorted.count, elapsed, Double(sorted.count) / elapsed, percentile(0.5), percentile(0.99), timings.failures))
    }

    static func post(_ session: CurlHTTPClient, _ options: Options, _ path: String, _ body: [String: String]) async throws -> Int {
        try await session.send(try request(options, path, body)).1.statusCode
    }

    static func request(_ options: Options, _ path: String, _ body: [String: String]) throws -> OutboundRequest {
        var request = OutboundRequest(url: URL(string: options.base + "/api/" + path)!, timeoutInterval: 60)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(options.apiKey, forHTTPHeaderField: "x-api-key")
        return request
    }

    /// The newest code sent to a number, waiting briefly for delivery.
    static func code(_ session: CurlHTTPClient, _ options: Options, phone: String) async throws -> String {
        let digits = phone.filter(\.isNumber)
        var request = OutboundRequest(url: URL(string: options.base + "/admin/v1/outbox?to=\(digits)")!, timeoutInterval: 60)
        request.setValue("Bearer \(options.adminToken)", forHTTPHeaderField: "Authorization")
        for _ in 0..<200 {
            let (data, _) = try await session.send(request)
            if let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let body = (json["data"] as? [[String: Any]])?.first?["body"] as? String,
                let match = body.range(of: #"\d{6}$"#, options: .regularExpression)
            {
                return String(body[match])
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw CodeNotDelivered(phone: phone)
    }

    /// Runs `body` for every item, at most `width` at a time.
    static func forEach(_ items: [String], width: Int, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = items.makeIterator()
            for _ in 0..<width { if let item = iterator.next() { group.addTask { try await body(item) } } }
            while try await group.next() != nil {
                if let item = iterator.next() { group.addTask { try await body(item) } }
            }
        }
    }
}

/// No code reached the outbox for a number in the four seconds `code` waits.
struct CodeNotDelivered: Error {
    let phone: String
}

// Safe: `requests` is only read and written under `lock`.
final class RequestBook: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String: OutboundRequest] = [:]
    func set(_ phone: String, _ request: OutboundRequest) { lock.withLock { requests[phone] = request } }
    func get(_ phone: String) throws -> OutboundRequest {
        guard let request = lock.withLock({ requests[phone] }) else { throw CodeNotDelivered(phone: phone) }
        return request
    }
}

// Safe: `samples` and `failed` are only read and written under `lock`.
final class Timings: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Double] = []
    private var failed = 0
    func add(_ seconds: Double, ok: Bool) {
        lock.withLock {
            samples.append(seconds)
            if !ok { failed += 1 }
        }
    }
    var values: [Double] { lock.withLock { samples } }
    var failures: Int { lock.withLock { failed } }
}
