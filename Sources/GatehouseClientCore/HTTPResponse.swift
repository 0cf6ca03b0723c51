import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer: the body and the response it came with.
package struct HTTPResponse: Sendable {
    package let data: Data
    package let response: HTTPURLResponse

    package init(data: Data, response: HTTPURLResponse) {
        self.data = data
        self.response = response
    }

    package var status: Int { response.statusCode }

    package func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }

    /// Seconds of the `Retry-After` header; see `retryAfterSeconds(_:)`.
    package var retryAfter: TimeInterval? { Self.retryAfterSeconds(header("Retry-After")) }

    /// Whole or fractional seconds of a `Retry-After` value, spaces trimmed; an HTTP-date gives `nil`.
    package static func retryAfterSeconds(_ header: String?) -> TimeInterval? {
        header.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
    }
}
