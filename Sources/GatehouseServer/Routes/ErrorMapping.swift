import GatehouseCore
import GatehouseHTTP

/// Core errors answer in Gatehouse's own envelope. Vendor dialects map them themselves.
extension CoreError: HTTPResponseError {
    public func response(context: RequestContext) -> Response {
        let status: Int
        switch code {
        case .notFound: status = 404
        case .invalidArgument, .amountOutOfRange: status = 400
        case .conflict: status = 409
        case .unauthenticated: status = 401
        case .unavailable: status = 503
        }
        return HTTPError(status: status, code: code.rawValue, message: message).response(context: context)
    }
}
