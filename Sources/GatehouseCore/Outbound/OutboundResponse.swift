import Foundation
import GatehouseFormats

/// The head of an answer: its status and header fields, in the order they came.
public struct OutboundResponse: Sendable {
    public let statusCode: Int
    public let headerFields: [(name: String, value: String)]

    public init(statusCode: Int, headerFields: [(name: String, value: String)]) {
        self.statusCode = statusCode
        self.headerFields = headerFields
    }

    /// The first field of this name (case-insensitive).
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields.first { HTTPToken.namesMatch($0.name, name) }?.value
    }

    /// The announced body length, or -1.
    public var expectedContentLength: Int64 {
        value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } ?? -1
    }
}
