import GatehouseCore
import GatehousePossessionEngine
import GatehouseHTTP
import GatehouseWire

/// Prove's error body `{"code":1003,"message":"step not allowed"}` with its status, for the
/// v3 server API and the device API alike, and how the possession engine's refusals read in it.
struct ProveError: Error, Equatable {
    typealias Code = PossessionWire.ErrorCode

    let status: Int
    let code: Code
    let message: String
    var retryAfter: Int?
    var headers: HTTPHeaders = [:]

    init(_ status: Int, _ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    static let unauthorized = ProveError(401, .unauthorized, "unauthorized")

    /// `nil` for an error no engine or layer meant to show a client.
    init?(mapping error: any Error) {
        switch error {
        case let error as ProveError: self = error
        case let error as PossessionError: self.init(error)
        case let error as CoreError where error.code == .notFound: self.init(404, .notFound, error.text)
        case let error as HTTPError:
            switch error.status {
            case 404: self.init(404, .unknownOperation, "no such operation")
            case 405: self.init(405, .invalidRequest, error.message)
            case 413: self.init(413, .invalidRequest, "request body is too large")
            case 429: self.init(429, .rateLimited, error.message)
            case 400 where error.code == "invalid_body" && error.message.hasPrefix("body:"):
                self.init(400, .invalidRequest, "the body must be a JSON object")
            case 400 where error.code == "invalid_body" && (error.message.hasSuffix(": required") || error.message.hasSuffix(": value missing")):
                self.init(400, .fieldMissing, "field '\(error.message.split(separator: ":").first ?? "")' is missing")
            case 400 where error.code == "invalid_body" && error.message.hasSuffix("wrong type"):
                self.init(400, .fieldInvalid, "field '\(error.message.split(separator: ":").first ?? "")' has the wrong type")
            case 400..<500: self.init(error.status, .invalidRequest, error.message)
            default: return nil
            }
            headers = error.headers
        default: return nil
        }
    }

    private init(_ error: PossessionError) {
        let status: Int
        let code: Code
        switch error.code {
        case .fieldMissing: (status, code) = (400, .fieldMissing)
        case .fieldInvalid: (status, code) = (400, .fieldInvalid)
        case .stepNotAllowed: (status, code) = (403, .stepNotAllowed)
        case .flowExpired: (status, code) = (403, .flowExpired)
        case .unauthorized: (status, code) = (401, .unauthorized)
        case .otpInvalid: (status, code) = (400, .otpInvalid)
        case .otpExpired: (status, code) = (400, .otpExpired)
        case .otpAttemptsExhausted: (status, code) = (403, .otpAttemptsExhausted)
        case .phoneNumberInvalid: (status, code) = (400, .phoneNumberInvalid)
        case .testModeRefused: (status, code) = (403, .testModeRefused)
        case .notFound: (status, code) = (404, .notFound)
        // Prove's SDKs decode only 400, 401, 403 and 500 from Validate, Challenge and Complete.
        case .noSuchFlow: (status, code) = (400, .correlationIdInvalid)
        case .otpSentRecently: (status, code) = (429, .otpSentRecently)
        case .rateLimited: (status, code) = (429, .rateLimited)
        case .notConfigured: (status, code) = (503, .unavailable)
        }
        self.init(status, code, error.text, retryAfter: error.retryAfter)
    }

    func response() -> Response {
        var response = (try? Response.json(ProveWire.ErrorBody(code: code.rawValue, message: message), status: status)) ?? Response(status: status)
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        for (name, value) in headers { response.headers.set(name, value) }
        if status == 401 { response.headers.set("WWW-Authenticate", "Bearer") }
        return response
    }

    /// The one renderer of the dialect; anything unexpected is logged and answered as a 500
    /// that names only the request id.
    static func render(_ error: any Error, context: RequestContext, logger: Logger) -> Response {
        guard let mapped = ProveError(mapping: error) else {
            logger.error("possession API error in request \(plain: context.requestID): \(String(reflecting: error))")
            return ProveError(500, .unavailable, "internal error (request \(context.requestID))").response()
        }
        return mapped.response()
    }
}
