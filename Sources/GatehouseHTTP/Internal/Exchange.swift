import CMicroHTTPD
import Foundation

/// The state of one request on one connection, from its head to its completion.
/// MHD keeps a retained pointer to it in the connection's per-request slot.
final class Exchange: @unchecked Sendable {
    enum Phase { case receiving, waitingForHandler, ready, responded }

    let connection: OpaquePointer
    let started: UInt64
    var routed: Responder.Routed
    var request: Request
    var phase: Phase = .receiving
    var bodyLimit: Int
    var bodyTooLarge = false
    var bodyInvalid = false
    var postProcessor: OpaquePointer?
    var multipart: MultipartForm?
    var partLimitExceeded = false
    var receivedMultipartBytes = 0
    /// Body bytes read so far, kept or dropped.
    var received = 0
    /// The connection's deadline watch.
    var watched: WatchedConnection?
    /// Set when the head is refused before the body arrives: the body is dropped and this
    /// is the answer.
    var refusal: HTTPError?
    var maxPartSize = 0
    var maxParts = 0
    /// Filled by the handler task before the connection is resumed.
    var pending: Response?
    var stream: StreamChannel?
    /// The async handler's task, cancelled when shutdown's grace period runs out.
    var task: Task<Void, Never>?
    /// Registered with the server because its connection may be suspended.
    var isTracked = false

    init(connection: OpaquePointer, started: UInt64, routed: Responder.Routed, request: Request, bodyLimit: Int) {
        self.connection = connection
        self.started = started
        self.routed = routed
        self.request = request
        self.bodyLimit = bodyLimit
    }

    /// Adds a chunk of a multipart field; false stops the parser (a limit was hit).
    func appendPart(name: String, filename: String?, contentType: String?, bytes: UnsafeRawBufferPointer, isStart: Bool) -> Bool {
        guard var form = multipart else { return false }
        if isStart || form.parts.isEmpty || form.parts[form.parts.count - 1].name != name {
            if form.parts.count >= maxParts {
                partLimitExceeded = true
                return false
            }
            form.parts.append(.init(name: name, filename: filename, contentType: contentType, data: Data()))
        }
        let index = form.parts.count - 1
        if form.parts[index].data.count + bytes.count > maxPartSize {
            partLimitExceeded = true
            return false
        }
        if bytes.count > 0 { form.parts[index].data.append(bytes.bindMemory(to: UInt8.self)) }
        multipart = form
        return true
    }
}


/// Carries a stream channel and its connection into MHD's content-reader callback.
final class StreamSource {
    let channel: StreamChannel
    let connection: OpaquePointer
    init(channel: StreamChannel, connection: OpaquePointer) {
        self.channel = channel
        self.connection = connection
    }
}
