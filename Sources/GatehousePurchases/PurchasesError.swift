import Foundation
import GatehouseClientCore

/// What a GatehousePurchases call to a server can fail with (the session's own errors, such as a
/// sign-out from `GatehouseAuth`, pass through as they are).
public enum PurchasesError: Error, Equatable, Sendable {
    /// The server answered with an error status; `code` is its error code when it sent one.
    case api(status: Int, code: PurchasesErrorCode?, message: String, retryAfter: TimeInterval?)
    /// The server answered something that is not the expected shape.
    case unexpectedResponse(String)

    /// The server's error code of an `.api` error.
    public var code: PurchasesErrorCode? {
        if case .api(_, let code, _, _) = self { return code }
        return nil
    }

    /// Hooks of the SDK's HTTP client for GatehousePurchases; a failure's own error passes through.
    static func hooks(status: @escaping @Sendable (HTTPResponse) -> PurchasesError) -> ErrorHooks {
        ErrorHooks(
            status: status,
            decoding: { type, error in PurchasesError.unexpectedResponse("cannot decode \(type): \(error)") })
    }
}
