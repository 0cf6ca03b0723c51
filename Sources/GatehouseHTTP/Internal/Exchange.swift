import CMicroHTTPD
import Foundation

// Safe: fields are confined to the MHD thread that owns the connection, and the handler task writes `pending` and
// `phase` only while the connection is suspended, before MHD_resume_connection hands it back (ordered by MHD's own
// locking). `task` and `stream`, which `Server.shutdown()` reads from another thread, are set and read under the
// server's lock (`Server.attach`).
/// The state of one request on one connection, from its head to its completion.
/// MHD keeps a retained pointer to it in the connection's per-request slot.
final class Exchange: @unchecked Sendable {
    /// `admitting`: an upload's head is being checked (its connection suspended) before its body is read.
    enum Phase { case admitting, receiving, waitingForHandler, ready, responded }

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
    /// Set on a route that streams file parts to disk.
    var uploads: UploadPolicy?
    var openFile: FileHandle?
    /// Set when an admitted upload resumes: MHD calls again as it did for the head, with no
    /// body yet, and that call is not the body's end.
    var resumedAfterAdmission = false
    /// The body's `Content-Length`, when it announced one.
    var announcedLength: Int?
    /// An upload's admission: set by its check's task, read on the MHD thread.
    enum Admission: Sendable { case pending, decided(HTTPError?) }
    let admission = AdmissionBox()
    /// Body bytes MHD handed over while the admission was pending.
    var heldBody = Data()
    var createdFiles: [URL] = []
    var fieldBytes = 0
    /// Filled by the handler task before the connection is resumed.
    var pending: Response?
    var stream: StreamChannel?
    /// The async handler's task, cancelled when shutdown's grace period runs out.
    var task: Task<Void, Never>?
    /// Registered with the server because its connection may be suspended.
    var isTracked = false
    /// A 413 was written while the body still arrived: MHD must not answer again.
    var answeredEarly = false
    /// Until when (uptime nanoseconds) the rest of an early-refused body is read and dropped.
    var lingerUntil: UInt64 = 0

    init(connection: OpaquePointer, started: UInt64, routed: Responder.Routed, request: Request, bodyLimit: Int) {
        self.connection = connection
        self.started = started
        self.routed = routed
        self.request = request
        self.bodyLimit = bodyLimit
    }

    /// Adds a chunk of a multipart field; false stops the parser (a limit was hit). On a
    /// route with an `UploadPolicy`, a part with a file name goes to a file of its own.
    func appendPart(name: String, filename: String?, contentType: String?, bytes: UnsafeRawBufferPointer, isStart: Bool) -> Bool {
        guard multipart != nil else { return false }
        let count = multipart!.parts.count
        if isStart || count == 0 || multipart!.parts[count - 1].name != name {
            if count >= maxParts {
                partLimitExceeded = true
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
            partLimitExceeded = true
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


// Safe: `value` is only read and written under `lock`, inside `withLock`.
/// The admission verdict, shared between its task and the MHD thread.
final class AdmissionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Exchange.Admission = .pending
    func withLock<T>(_ body: (inout Exchange.Admission) -> T) -> T { lock.withLock { body(&value) } }
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
