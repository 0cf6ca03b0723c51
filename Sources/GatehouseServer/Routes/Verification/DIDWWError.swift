import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// A refusal in the DIDWW envelope `{"errors":[{"code","detail"}]}`, with `Retry-After` in
/// whole seconds on limits. Every error under the dialect's prefix is rendered through
/// `render`, whoever raised it.
struct DIDWWError: Error, Equatable {
    let codes: [DIDWWErrorCode]
    var retryAfter: Int?

    init(_ codes: [DIDWWErrorCode], retryAfter: Int? = nil) {
        self.codes = codes
        self.retryAfter = retryAfter
    }

    init(_ code: DIDWWErrorCode) { self.init([code]) }

    init(_ failure: VerificationFailure) {
        self.init(failure.codes.map(DIDWWErrorCode.init), retryAfter: failure.retryAfter)
    }

    /// The status of the first code; the codes of one failure share it.
    var status: Int { codes[0].status }

    func response() -> Response {
        let body = DIDWWWire.ErrorEnvelope(errors: codes.map { DIDWWWire.ErrorItem(code: $0.rawValue, detail: $0.detail) })
        var response = (try? Response.json(body, status: status)) ?? Response(status: status)
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    /// The one renderer of the dialect. Router and transport errors: 404 is `not_found`; a
    /// body that is not JSON `parameter_missing` (as the vendor answers); a field refused at
    /// the edge (named twice, a control character) 422 `validation_failed`; anything else
    /// (405, 413, 415, …) `validation_failed` with its HTTP status kept. Anything unexpected
    /// is logged and answered `internal_error`.
    static func render(_ error: any Error, context: RequestContext, logger: Logger) -> Response {
        switch error {
        case let failure as VerificationFailure:
            return DIDWWError(failure).response()
        case let error as DIDWWError:
            return error.response()
        case let error as HTTPError:
            let isBodyRefusal = error.code == "invalid_body" || error.isFieldValidation
            let code: DIDWWErrorCode = error.status == 404 ? .notFound : error.code == "invalid_body" ? .parameterMissing : .validationFailed
            var response = DIDWWError(code).response()
            if !isBodyRefusal { response.status = error.status }
            for (name, value) in error.headers { response.headers.set(name, value) }
            return response
        default:
            logger.error("verification API error", ["requestId": .plain(context.requestID), "error": LogValue(String(reflecting: error))])
            return DIDWWError(.internalError).response()
        }
    }
}
