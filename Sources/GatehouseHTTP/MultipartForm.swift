import Foundation

/// The parts of a `multipart/form-data` body, in order.
public struct MultipartForm: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public let name: String
        public let filename: String?
        public let contentType: String?
        public var data: Data
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
