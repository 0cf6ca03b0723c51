import Foundation

/// An error that knows how to answer the client. The router renders these; any other
/// error becomes a 500 that carries only the request id.
public protocol HTTPResponseError: Error {
    func response(context: RequestContext) -> Response
}

/// The default error envelope: `{"error":{"code","message","requestId"}}`.
public struct HTTPError: HTTPResponseError, Equatable {
    public let status: Int
    public let code: String
    public let message: String
    public var headers: HTTPHeaders

    public init(status: Int, code: String, message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public func response(context: RequestContext) -> Response {
        struct Envelope: Encodable {
            struct Detail: Encodable { let code: String; let message: String; let requestId: String }
            let error: Detail
        }
        let body = Envelope(error: .init(code: code, message: message, requestId: context.requestID))
        var response = (try? Response.json(body, status: status)) ?? Response(status: status)
        for (name, value) in headers { response.headers.add(name, value) }
        return response
    }

    public static func notFound(_ message: String = "no such resource") -> HTTPError {
        HTTPError(status: 404, code: "not_found", message: message)
    }
    public static func badRequest(_ message: String, code: String = "bad_request") -> HTTPError {
        HTTPError(status: 400, code: code, message: message)
    }
    public static func unauthorized(_ message: String = "authentication required") -> HTTPError {
        HTTPError(status: 401, code: "unauthorized", message: message, headers: ["WWW-Authenticate": "Bearer"])
    }
    public static let payloadTooLarge = HTTPError(status: 413, code: "payload_too_large", message: "request body is too large")
    public static let internalError = HTTPError(status: 500, code: "internal_error", message: "internal error")
}
