/// Runs one task per key at a time; callers that arrive while it runs share its result, and
/// the key is freed however it ends, so a failure never wedges it. The managed APIs' token
/// fetches and Google's service-account tokens go through one each.
public actor SingleFlight<Value: Sendable> {
    private var running: [String: Task<Value, any Error>] = [:]

    public init() {}

    public func run(_ key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = running[key] { return try await task.value }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
