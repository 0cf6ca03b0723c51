import Foundation
import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP

/// The Datacove envelope (seed 000 §08):
/// `{statusCode, timestamp, path, error: {statusCode, error, message, code}}`.
struct DatacoveError: HTTPResponseError {
    let status: Int
    let code: String?
    let message: String
    var retryAfter: Int?
    let path: String
    /// Only for PURCHASE_LINKED_TO_ANOTHER_ACCOUNT: whether the app may offer to move it.
    var canTransfer: Bool?

    init(status: Int, code: String?, message: String, retryAfter: Int? = nil, path: String, canTransfer: Bool? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.path = path
        self.canTransfer = canTransfer
    }

    func response(context: RequestContext) -> Response {
        struct Detail: Encodable {
            let statusCode: Int
            let error: String
            let message: String
            let code: String?
            let canTransfer: Bool?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(statusCode, forKey: .statusCode)
                try container.encode(error, forKey: .error)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(code, forKey: .code)
                try container.encodeIfPresent(canTransfer, forKey: .canTransfer)
            }
            enum CodingKeys: String, CodingKey { case statusCode, error, message, code, canTransfer }
        }
        struct Envelope: Encodable {
            let statusCode: Int
            let timestamp: String
            let path: String
            let error: Detail
        }
        let body = Envelope(
            statusCode: status, timestamp: Self.timestamp(), path: path,
            error: Detail(statusCode: status, error: Self.reason(status), message: message, code: code, canTransfer: canTransfer))
        var response = (try? Response.json(body, status: status)) ?? Response(status: status)
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        default: return status >= 500 ? "Internal Server Error" : "Error"
        }
    }

    /// The code of a router or transport error: a body refused at the edge (not JSON, a
    /// field named twice, a control character) is this dialect's validation failure.
    static func code(of error: HTTPError) -> String {
        if error.status == 404 { return "NOT_FOUND" }
        if error.status == 413 { return "PAYLOAD_TOO_LARGE" }
        if error.isFieldValidation || error.code == "invalid_body" { return "VALIDATION_FAILED" }
        return error.code.uppercased()
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    /// Maps what engines throw to the envelope; anything unexpected becomes a 500 that says
    /// nothing but the request id (the details go to the log).
    static func from(_ error: any Error, path: String, context: RequestContext, log: (LogValue) -> Void) -> DatacoveError {
        switch error {
        case let error as AccountsError:
            return DatacoveError(status: error.status, code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter, path: path)
        case let error as SessionError:
            return DatacoveError(status: 401, code: error.code.rawValue, message: error.code.message, path: path)
        case let error as DatacoveError:
            return error
        case let error as PurchaseError:
            let status: Int
            switch error.code {
            case .linkedToAnotherAccount, .trialUnavailable: status = 409
            case .entitlementInactive: status = 403
            case .storeUnavailable: status = 503
            default: status = 400
            }
            return DatacoveError(status: status, code: error.code.rawValue, message: error.message, path: path, canTransfer: error.canTransfer)
        case let error as HTTPError:
            return DatacoveError(status: error.status, code: "VALIDATION_FAILED", message: error.message, path: path)
        default:
            log("datacove API error in request \(plain: context.requestID): \(String(reflecting: error))")
            return DatacoveError(
                status: 500, code: "INTERNAL_ERROR", message: "Something went wrong (request \(context.requestID)).", path: path)
        }
    }
}
