import Foundation

/// An exclusive `flock` on a file, held across an async body; another process taking the same file waits.
///
/// `flock` belongs to the open file description, so two `FileLock`s on one path exclude each other even
/// inside one process, which is how tests stand in for an app and its extension.
struct FileLock: Sendable {
    let url: URL
    /// Past this, a refresh goes ahead without the lock: a hung peer must not stop this process for good,
    /// and the server's 30-second window still makes two refreshes of one token converge.
    var maxWait: Duration = .seconds(10)
    /// Told each time an attempt finds the lock held elsewhere, before waiting; tests await it instead of sleeping.
    var contended: (@Sendable () -> Void)?

    func withLock<T>(_ body: () async throws -> T) async throws -> T {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokenStoreError("cannot open lock file \(url.path)", status: errno)
        }
        // Closing the descriptor also releases the lock, on every exit path.
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: maxWait)
        var delay = Duration.milliseconds(2)
        // Non-blocking attempts with sleeps keep the cooperative thread pool free while another process refreshes.
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                throw TokenStoreError("cannot lock \(url.path)", status: failure)
            }
            if failure == EWOULDBLOCK { contended?() }
            if clock.now >= deadline { return try await body() }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(50))
        }
        return try await body()
    }
}
