import Foundation

/// An HTTP response: status, headers and either bytes or a stream.
public struct Response: Sendable {
    public enum Body: Sendable {
        case bytes(Data)
        /// Produced while the response is sent; see `BodyWriter`.
        case stream(@Sendable (BodyWriter) async throws -> Void)
    }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int = 200, headers: HTTPHeaders = [:], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Data(text.utf8)))
    }

    /// A response with no body.
    public static func empty(status: Int = 204) -> Response { Response(status: status) }

    /// The body's bytes, or empty for a stream.
    public var bodyData: Data {
        if case .bytes(let data) = body { return data }
        return Data()
    }
}
