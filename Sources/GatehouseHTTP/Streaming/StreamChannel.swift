import Foundation

// Safe: `buffer`, `finished`, `failed`, `cancelled`, `readerWaiting` and `writerWaiting` are only touched under `lock`
// (`takeReaderWaiting` runs with it held); `onReadable` is set once, by `Server.queue`, before the channel reaches its
// producer task or `Server.active`, and only read after that (but see the unlocked `stream` read noted on Exchange).
/// A bounded byte queue between a producing task and the server thread that sends.
/// The server side never blocks: when the queue is empty it asks to be woken (`onReadable`)
/// and the connection is suspended meanwhile.
final class StreamChannel: @unchecked Sendable {
    enum Pull { case bytes(Int), wait, end, failed }

    private let lock = NSLock()
    private var buffer = Data()
    private var finished = false
    private var failed = false
    private var cancelled = false
    private var readerWaiting = false
    private var writerWaiting: CheckedContinuation<Void, any Error>?
    private let highWater: Int
    /// Called (once per wait) when data or the end arrives for a reader that was waiting.
    var onReadable: (@Sendable () -> Void)?

    init(highWater: Int = 256 * 1024) { self.highWater = highWater }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func push(_ data: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            lock.lock()
            if cancelled {
                lock.unlock()
                continuation.resume(throwing: CancellationError())
                return
            }
            buffer.append(data)
            let wake = takeReaderWaiting()
            if buffer.count > highWater {
                writerWaiting = continuation
                lock.unlock()
            } else {
                lock.unlock()
                continuation.resume()
            }
            if wake { onReadable?() }
        }
    }

    /// Ends the stream; `error` ends it abnormally (the connection is cut).
    func finish(error: (any Error)? = nil) {
        lock.lock()
        finished = true
        failed = error != nil
        let wake = takeReaderWaiting()
        lock.unlock()
        if wake { onReadable?() }
    }

    /// Called by the server when the client is gone or the response was destroyed.
    func cancel() {
        lock.lock()
        cancelled = true
        let writer = writerWaiting
        writerWaiting = nil
        lock.unlock()
        writer?.resume(throwing: CancellationError())
    }

    /// Copies up to `max` bytes into `destination`. When there is nothing to send yet,
    /// `suspend` runs under the lock, so the wake-up that follows can never come first.
    func pull(into destination: UnsafeMutablePointer<CChar>, max: Int, suspend: () -> Void) -> Pull {
        lock.lock()
        if buffer.isEmpty {
            if finished {
                lock.unlock()
                return failed ? .failed : .end
            }
            suspend()
            readerWaiting = true
            lock.unlock()
            return .wait
        }
        let count = min(max, buffer.count)
        buffer.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(destination).copyMemory(from: raw.baseAddress!, byteCount: count)
        }
        buffer.removeFirst(count)
        var writer: CheckedContinuation<Void, any Error>?
        if buffer.count <= highWater / 2 {
            writer = writerWaiting
            writerWaiting = nil
        }
        lock.unlock()
        writer?.resume()
        return .bytes(count)
    }

    private func takeReaderWaiting() -> Bool {
        let waiting = readerWaiting
        readerWaiting = false
        return waiting
    }
}
