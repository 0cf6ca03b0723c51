import Foundation
import GatehouseHTTP
import GatehouseVerificationEngine

/// The DIDWW envelope: `{"errors":[{"code","detail"}]}` with fixed texts, and
/// `Retry-After` in whole seconds on limits.
struct VerificationAPIError: HTTPResponseError {
    let failure: VerificationFailure

    func response(context: RequestContext) -> Response {
        struct Item: Encodable { let code: String; let detail: String }
        struct Envelope: Encodable { let errors: [Item] }
        let body = Envelope(errors: failure.codes.map { Item(code: $0.rawValue, detail: $0.detail) })
        var response = (try? Response.json(body, status: failure.status)) ?? Response(status: failure.status)
        if let retryAfter = failure.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }
}
