import Foundation

/// The value of a shared task, or `CancellationError` as soon as the waiting task is cancelled.
///
/// The shared task keeps running: other callers wait on it too, and a refresh cut off mid-flight would
/// leave the server rotated and the new pair unsaved, which the next refresh pays for with TOKEN_REUSED.
func cancellableValue<T: Sendable>(of task: Task<T, any Error>) async throws -> T {
    let box = ResumeOnce<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            box.install(continuation)
            Task { box.resume(with: await task.result) }
        }
    } onCancel: {
        box.resume(with: .failure(CancellationError()))
    }
}

// Safe: `continuation`, `early` and `done` are only read and written under `lock`.
/// Resumes a continuation exactly once with whichever result arrives first, before or after it is installed.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let result: Result<T, any Error>? = lock.withLock {
            if let early {
                done = true
                return early
            }
            self.continuation = continuation
            return nil
        }
        if let result { continuation.resume(with: result) }
    }

    func resume(with result: Result<T, any Error>) {
        let continuation: CheckedContinuation<T, any Error>? = lock.withLock {
            guard !done else { return nil }
            guard let continuation = self.continuation else {
                if early == nil { early = result }
                return nil
            }
            done = true
            self.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}
