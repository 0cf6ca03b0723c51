import GatehouseCore
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine
import GatehouseWorkflowsEngine

/// The operator API's errors in Gatehouse's own envelope `{"error":{"code","message","requestId"}}`.
enum AdminError {
    /// The code and status of a core refusal.
    static func httpError(_ error: CoreError) -> HTTPError {
        switch error.code {
        case .notFound: HTTPError(status: 404, code: "not_found", message: error.text)
        case .invalidArgument: HTTPError(status: 400, code: "invalid_argument", message: error.text)
        case .amountOutOfRange: HTTPError(status: 400, code: "amount_out_of_range", message: error.text)
        case .conflict: HTTPError(status: 409, code: "conflict", message: error.text)
        case .unauthenticated: HTTPError(status: 401, code: "unauthenticated", message: error.text)
        case .unavailable: HTTPError(status: 503, code: "unavailable", message: error.text)
        }
    }

    /// The code and status of a workflows refusal on the operator API.
    static func httpError(_ error: WorkflowError) -> HTTPError {
        switch error.code {
        case .notFound: HTTPError(status: 404, code: "not_found", message: error.text)
        case .definitionInvalid, .inputInvalid, .fileInvalid: HTTPError(status: 400, code: "invalid_definition", message: error.text)
        case .insufficientCredits, .entitlementInactive, .idempotencyKeyReused: HTTPError(status: 409, code: "conflict", message: error.text)
        }
    }

    /// The code and status of a managed APIs refusal on the operator API.
    static func httpError(_ error: ManagedAPIError) -> HTTPError {
        switch error.code {
        case .notFound: HTTPError(status: 404, code: "not_found", message: error.text)
        case .definitionInvalid, .pathRefused, .notProxied: HTTPError(status: 400, code: "invalid_definition", message: error.text)
        case .secretKeyMissing: HTTPError(status: 503, code: "secret_key_missing", message: error.text)
        case .destinationRefused, .credentialUnavailable: HTTPError(status: 409, code: "conflict", message: error.text)
        }
    }

    /// The code and status of a possession refusal on the operator API.
    static func httpError(_ error: PossessionError) -> HTTPError {
        switch error.code {
        case .notFound: HTTPError(status: 404, code: "not_found", message: error.text)
        case .notConfigured: HTTPError(status: 503, code: "secret_key_missing", message: error.text)
        default: HTTPError(status: 400, code: "invalid_argument", message: error.text)
        }
    }

    /// The code and status of a commerce refusal (a credit grant) on the operator API.
    static func httpError(_ error: CommerceError) -> HTTPError {
        switch error.code {
        case .notFound: HTTPError(status: 404, code: "not_found", message: error.text)
        case .validationFailed: HTTPError(status: 400, code: "invalid_argument", message: error.text)
        case .conflict: HTTPError(status: 409, code: "conflict", message: error.text)
        case .secretKeyMissing: HTTPError(status: 503, code: "secret_key_missing", message: error.text)
        }
    }

    /// The operator API's answer to an error an engine meant to show; nil for anything else.
    static func httpError(of error: any Error) -> HTTPError? {
        switch error {
        case let error as CoreError: httpError(error)
        case let error as WorkflowError: httpError(error)
        case let error as ManagedAPIError: httpError(error)
        case let error as CommerceError: httpError(error)
        case let error as PossessionError: httpError(error)
        case let error as HTTPError: error
        default: nil
        }
    }

    /// The one renderer under `/admin`: anything unexpected is logged and answered as a bare 500.
    static func render(_ error: any Error, context: RequestContext, logger: Logger) -> Response {
        if let known = httpError(of: error) { return known.response(context: context) }
        logger.error(LogValue("unhandled error in \(context.route): \(String(reflecting: error))"), ["requestId": .plain(context.requestID)])
        return HTTPError.internalError.response(context: context)
    }
}

/// An error as the operator reads it from the command line: in the operator API's words where
/// an engine meant to show it, as Swift describes it otherwise.
public func operatorText(_ error: any Error) -> String {
    AdminError.httpError(of: error)?.message ?? "\(error)"
}
