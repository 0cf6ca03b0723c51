import Foundation

/// A route that also takes `multipart/form-data` with files: each file part is streamed to
/// its own file in `directory` as it arrives (never the whole body in memory), text fields
/// are kept in memory, and the body may be as large as `maxBytes` instead of the server's
/// JSON limit. The handler moves the files it keeps; the rest are removed when the request
/// is over.
public struct UploadPolicy: Sendable {
    public var directory: URL
    /// The whole multipart body, files and fields.
    public var maxBytes: Int
    /// All text fields together.
    public var maxFieldBytes: Int
    /// Checked on the request's head, before any byte of the body is read (the connection
    /// waits meanwhile): a refusal here is the answer, and the body is read and dropped, never
    /// written to disk (a missing or expired credential, say).
    public var admits: @Sendable (HTTPHeaders) async -> HTTPError?

    public init(
        directory: URL, maxBytes: Int, maxFieldBytes: Int = 1 << 20, admits: @escaping @Sendable (HTTPHeaders) async -> HTTPError? = { _ in nil }
    ) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.maxFieldBytes = maxFieldBytes
        self.admits = admits
    }
}
