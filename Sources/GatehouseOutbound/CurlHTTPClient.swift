import CCurl
import Foundation
import GatehouseCore

/// The server's outbound HTTP on libcurl: one multi handle and thread per node, deadlines
/// on every call, cancellation at any phase, addresses vetted where the connection is
/// made, no redirects unless asked, and bodies streamed with backpressure (`open`).
///
/// ```swift
/// let http = CurlHTTPClient()
/// let (data, response) = try await http.send(OutboundRequest(url: url, timeoutInterval: 10))
/// ```
public final class CurlHTTPClient: OutboundHTTP, Sendable {
    public let metrics: OutboundMetrics
    /// Two connection caches: a connection opened for a request that may go anywhere is
    /// never reused by one held to public addresses, whose every connection was vetted.
    private let trusted = CurlLoop(name: "gatehouse-outbound")
    private let vetted = CurlLoop(name: "gatehouse-outbound-vetted")

    public init(metrics: OutboundMetrics = OutboundMetrics()) {
        self.metrics = metrics
    }

    private func loop(_ transfer: CurlTransfer) -> CurlLoop {
        transfer.request.destinations == .publicOnly ? vetted : trusted
    }

    private func transfer(_ request: OutboundRequest, _ mode: CurlTransfer.Mode) throws -> CurlTransfer {
        let transfer = try CurlTransfer(request: request, mode: mode)
        transfer.settled = { [metrics] transfer, outcome in metrics.record(transfer.request.target, outcome: outcome, since: transfer.started) }
        return transfer
    }

    deinit {
        trusted.stop()
        vetted.stop()
    }

    public func send(_ request: OutboundRequest) async throws -> (Data, OutboundResponse) {
        let transfer = try transfer(request, .buffered)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.whole(continuation)
                loop(transfer).submit(.add(transfer))
            }
        } onCancel: {
            cancel(transfer)
        }
    }

    /// Sends `request` and returns once the answer's head is in; its body follows as the
    /// caller reads it, at most `highWater` bytes held unread (curl is paused meanwhile).
    public func open(_ request: OutboundRequest, highWater: Int = 256 * 1024) async throws -> OutboundStream {
        precondition(highWater > 0, "a stream needs room for at least one byte")
        let transfer = try transfer(request, .streamed(highWater: highWater))
        let loop = loop(transfer)
        // Weak: the transfer holds this closure, and must be freed once curl and the caller let go.
        transfer.requestUnpause = { [loop, weak transfer] in
            if let transfer { loop.submit(.unpause(transfer)) }
        }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.head(continuation)
                loop.submit(.add(transfer))
            }
        } onCancel: {
            cancel(transfer)
        }
        return OutboundStream(response: head, transfer: transfer, cancel: { [weak self] in self?.cancel(transfer) })
    }

    private func cancel(_ transfer: CurlTransfer) {
        guard transfer.abandon(CancellationError()) else { return }
        loop(transfer).submit(.remove(transfer))
    }
}

/// An answer whose body is read piece by piece.
public final class OutboundStream: Sendable {
    public let response: OutboundResponse
    private let transfer: CurlTransfer
    private let cancelling: @Sendable () -> Void

    init(response: OutboundResponse, transfer: CurlTransfer, cancel: @escaping @Sendable () -> Void) {
        self.response = response
        self.transfer = transfer
        cancelling = cancel
    }

    /// The next piece of the body, nil at its end; throws `OutboundError` when it broke off.
    public func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { transfer.nextChunk($0) }
        } onCancel: {
            cancelling()
        }
    }

    /// The whole body, when the answer has ended well (as a short one has by the time its
    /// head is handed over) and nothing of it was read; nil otherwise (read it with `next`).
    /// Taken once.
    public func takeCompleteBody() -> Data? { transfer.takeCompleteBody() }

    /// Stops the transfer (the reader went away); safe at any time, more than once.
    public func cancel() { cancelling() }

    deinit { cancelling() }
}
