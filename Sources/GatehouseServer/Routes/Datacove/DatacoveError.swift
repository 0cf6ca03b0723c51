import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseWire
import GatehouseFormats

/// The Datacove envelope (seed 000 §08):
/// `{statusCode, timestamp, path, error: {statusCode, error, message, code}}`.
/// What engines throw is mapped to it in `DatacoveError+Mapping.swift`.
struct DatacoveError: Error, Equatable {
    let status: Int
    let code: String?
    let message: String
    var retryAfter: Int?
    /// Only for PURCHASE_LINKED_TO_ANOTHER_ACCOUNT: whether the app may offer to move it.
    var canTransfer: Bool?
    /// Only for INSUFFICIENT_CREDITS: the balance that was too small.
    var balance: Int?
    /// Headers a router or transport error carries (`Allow`, say).
    var headers: HTTPHeaders = [:]

    init(status: Int, code: String?, message: String, retryAfter: Int? = nil, canTransfer: Bool? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.canTransfer = canTransfer
    }

    /// A 400 `VALIDATION_FAILED` about the request's body.
    static func validation(_ message: String) -> DatacoveError {
        DatacoveError(status: 400, code: "VALIDATION_FAILED", message: message)
    }

    func response(path: String) -> Response {
        let body = DatacoveWire.ErrorEnvelope(
            statusCode: status, timestamp: Self.timestamp(), path: path,
            error: .init(
                statusCode: status, error: Self.reason(status), message: message, code: code, canTransfer: canTransfer, balance: balance))
        var response = (try? Response.json(body, status: status)) ?? Response(status: status)
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        for (name, value) in headers { response.headers.set(name, value) }
        return response
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return status >= 500 ? "Internal Server Error" : "Error"
        }
    }

    static func timestamp() -> String { WireDate.string(Date()) }

    /// The one renderer of the dialect (sign-in, purchases, profile and the tenant's store
    /// setup): anything unexpected is a 500 that says nothing but the request id, and the
    /// details go to the log.
    static func render(_ error: any Error, path: String, context: RequestContext, logger: Logger) -> Response {
        guard let mapped = DatacoveError(mapping: error) else {
            logger.error("datacove API error in request \(plain: context.requestID): \(String(reflecting: error))")
            return DatacoveError(status: 500, code: "INTERNAL_ERROR", message: "Something went wrong (request \(context.requestID)).")
                .response(path: path)
        }
        return mapped.response(path: path)
    }
}
