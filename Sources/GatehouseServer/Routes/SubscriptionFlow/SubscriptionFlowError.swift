import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseWire

/// SubscriptionFlow's failure envelope `{"status": false, "code", "message"}`, and how the
/// engines' refusals read in it.
struct SubscriptionFlowError: Error, Equatable {
    let status: Int
    let code: String
    let message: String
    var retryAfter: Int?
    var headers: HTTPHeaders = [:]

    init(status: Int, code: String, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    static let unauthenticated = SubscriptionFlowError(status: 401, code: "UNAUTHENTICATED", message: "The credentials are missing or not valid.")
    /// One answer for every refusal, so no caller learns whether a purchase exists.
    static let purchaseRefused = SubscriptionFlowError(status: 422, code: "PURCHASE_REFUSED", message: "This purchase cannot be linked to this account.")
    static let taggedForAnotherAccount = SubscriptionFlowError(
        status: 409, code: "PURCHASE_TAGGED_FOR_ANOTHER_ACCOUNT", message: "This purchase was made with another account token.")
    static func rateLimited(retryAfter: Int) -> SubscriptionFlowError {
        SubscriptionFlowError(status: 429, code: "RATE_LIMITED", message: "Too many requests. Try again later.", retryAfter: retryAfter)
    }
    static func validation(_ message: String) -> SubscriptionFlowError {
        SubscriptionFlowError(status: 400, code: "VALIDATION_FAILED", message: message)
    }

    /// `nil` for an error no engine or layer meant to show a client.
    init?(mapping error: any Error) {
        switch error {
        case let error as SubscriptionFlowError: self = error
        case is AccountTokenRefused: self = .unauthenticated
        case let error as CommerceError:
            switch error.code {
            case .validationFailed: self = .validation(error.text)
            case .notFound: self.init(status: 404, code: "NOT_FOUND", message: error.text)
            case .conflict: self.init(status: 409, code: "CONFLICT", message: error.text)
            case .secretKeyMissing: self.init(status: 503, code: "SECRET_KEY_MISSING", message: error.text)
            }
        case let error as PurchaseError:
            switch error.code {
            case .storeUnavailable: self.init(status: 503, code: "STORE_UNAVAILABLE", message: error.text)
            case .storeNotConfigured: self.init(status: 400, code: "STORE_NOT_CONFIGURED", message: error.text)
            default: self = .purchaseRefused
            }
        case let error as CoreError:
            self = error.code == .notFound ? SubscriptionFlowError(status: 404, code: "NOT_FOUND", message: error.text) : .validation(error.text)
        case let error as HTTPError:
            let code = error.isFieldValidation || error.code == "invalid_body" ? "VALIDATION_FAILED" : error.code.uppercased()
            self.init(status: error.status, code: code, message: error.message)
            headers = error.headers
        default: return nil
        }
    }

    func response() -> Response {
        let body = SubscriptionFlowWire.Failure(code: code, message: message)
        var response = (try? Response.json(body, status: status)) ?? Response(status: status)
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        for (name, value) in headers { response.headers.set(name, value) }
        return response
    }

    /// The one renderer of the dialect; anything unexpected is logged and answered as a 500
    /// that names only the request id.
    static func render(_ error: any Error, context: RequestContext, logger: Logger) -> Response {
        guard let mapped = SubscriptionFlowError(mapping: error) else {
            logger.error("subscriptionflow API error in request \(plain: context.requestID): \(String(reflecting: error))")
            return SubscriptionFlowError(status: 500, code: "INTERNAL_ERROR", message: "Something went wrong (request \(context.requestID)).")
                .response()
        }
        return mapped.response()
    }
}
