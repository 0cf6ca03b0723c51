import CMicroHTTPD
import Foundation

// Safe: an exchange is touched only on the MHD thread that owns its connection (MHD calls for one connection never
// overlap). Tasks reach it only through `mailbox`, which has its own lock; `task` and `stream`, which
// `Server.shutdown()` reads from another thread, are set and read under the server's lock (`Server.attach`).
/// The state of one request on one connection, from its head to its completion: the request,
/// its `ExchangeState`, and the resources (multipart parser, upload files) the transport holds
/// for it. MHD keeps a retained pointer to it in the connection's per-request slot.
final class Exchange: @unchecked Sendable {
    let connection: OpaquePointer
    let started: UInt64
    var routed: Responder.Routed
    var request: Request
    var state: ExchangeState
    /// What the admission check and the handler task hand back across threads.
    let mailbox = ExchangeMailbox()
    var postProcessor: OpaquePointer?
    var multipart: MultipartForm?
    /// The connection's deadline watch.
    var watched: WatchedConnection?
    var maxPartSize = 0
    var maxParts = 0
    /// Set on a route that streams file parts to disk.
    var uploads: UploadPolicy?
    var openFile: FileHandle?
    /// Body bytes MHD handed over while the admission was pending.
    var heldBody = Data()
    var createdFiles: [URL] = []
    var fieldBytes = 0
    var stream: StreamChannel?
    /// The async handler's task, cancelled when shutdown's grace period runs out.
    var task: Task<Void, Never>?
    /// Registered with the server because its connection may be suspended.
    var isTracked = false

    init(connection: OpaquePointer, started: UInt64, routed: Responder.Routed, request: Request, state: ExchangeState) {
        self.connection = connection
        self.started = started
        self.routed = routed
        self.request = request
        self.state = state
    }

    /// Adds a chunk of a multipart field; false stops the parser (a limit was hit). On a
    /// route with an `UploadPolicy`, a part with a file name goes to a file of its own.
    func appendPart(name: String, filename: String?, contentType: String?, bytes: UnsafeRawBufferPointer, isStart: Bool) -> Bool {
        guard multipart != nil else { return false }
        let count = multipart!.parts.count
        if isStart || count == 0 || multipart!.parts[count - 1].name != name {
            if count >= maxParts {
                state.partLimitHit()
                return false
            }
            closeOpenFile()
            var file: URL?
            if let uploads, filename != nil {
                let url = uploads.directory.appendingPathComponent("upload-" + UUID().uuidString.lowercased())
                guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = FileHandle(forWritingAtPath: url.path)
                else { return false }
                createdFiles.append(url)
                openFile = handle
                file = url
            }
            multipart!.parts.append(.init(name: name, filename: filename, contentType: contentType, data: Data(), file: file, size: 0))
        }
        let index = multipart!.parts.count - 1
        if multipart!.parts[index].file != nil {
            // The body limit bounds a file; its input's own limit is the handler's to check.
            guard let handle = openFile, (try? handle.write(contentsOf: Data(bytes))) != nil else { return false }
            multipart!.parts[index].size += Int64(bytes.count)
            return true
        }
        let fieldLimit = uploads?.maxFieldBytes ?? maxPartSize
        fieldBytes += bytes.count
        if multipart!.parts[index].data.count + bytes.count > maxPartSize || (uploads != nil && fieldBytes > fieldLimit) {
            state.partLimitHit()
            return false
        }
        if bytes.count > 0 {
            multipart!.parts[index].data.append(bytes.bindMemory(to: UInt8.self))
            multipart!.parts[index].size += Int64(bytes.count)
        }
        return true
    }

    func closeOpenFile() {
        try? openFile?.close()
        openFile = nil
    }

    /// The request is over: whatever file the handler did not move is removed.
    func removeUploads() {
        closeOpenFile()
        for url in createdFiles { try? FileManager.default.removeItem(at: url) }
        createdFiles = []
    }
}


// Safe: `verdict` and `response` are only read and written under `lock`.
/// What crosses from a task back to the connection's MHD thread: an upload's admission verdict
/// and the handler's response, each posted before the task resumes the connection.
final class ExchangeMailbox: @unchecked Sendable {
    private let lock = NSLock()
    /// nil while the admission is pending; `.some(nil)` once it admitted the upload.
    private var verdict: HTTPError??
    private var response: Response?

    func post(verdict: HTTPError?) { lock.withLock { self.verdict = .some(verdict) } }
    /// The admission's verdict, or nil while it is pending.
    var admissionVerdict: HTTPError?? { lock.withLock { verdict } }
    func post(response: Response) { lock.withLock { self.response = response } }
    var hasResponse: Bool { lock.withLock { response != nil } }
    func takeResponse() -> Response? {
        lock.withLock {
            defer { response = nil }
            return response
        }
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
