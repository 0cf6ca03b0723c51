import Foundation

/// The parts of a `multipart/form-data` body, in order.
public struct MultipartForm: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public let name: String
        public let filename: String?
        public let contentType: String?
        /// A text field's bytes; empty for a file streamed to disk.
        public var data: Data
        /// Where a file part was streamed, on a route with an `UploadPolicy`.
        public var file: URL?
        /// The part's size in bytes, in memory or on disk.
        public var size: Int64

        public init(name: String, filename: String?, contentType: String?, data: Data, file: URL? = nil, size: Int64? = nil) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.data = data
            self.file = file
            self.size = size ?? Int64(data.count)
        }
    }

    public internal(set) var parts: [Part] = []

    public init(parts: [Part] = []) { self.parts = parts }

    /// The first part with this field name.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// A text field's value.
    public func field(_ name: String) -> String? {
        part(name).flatMap { String(data: $0.data, encoding: .utf8) }
    }
}
