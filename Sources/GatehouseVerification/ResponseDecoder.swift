import Foundation
import GatehouseWire

/// The DIDWW dialect's error decoding, the hook GatehouseVerification gives the SDK's HTTP client:
/// an HTTP status, body and `Retry-After` header become an `APIError`.
enum ResponseDecoder {
    /// The statuses every call treats as success.
    static let successStatuses: Set<Int> = [200, 201]

    /// The error for an unsuccessful status; never throws while reading the body.
    static func error(status: Int, body: Data, retryAfterHeader: String?) -> APIError {
        if status == 401 { return .unauthorized }
        let retryAfter = retryAfterSeconds(retryAfterHeader)
        let items = ((try? JSONDecoder().decode(DIDWWWire.ErrorEnvelope.self, from: body))?.errors ?? [])
            .map { APIErrorItem(code: $0.code, detail: $0.detail, retryAfter: retryAfter) }
        switch status {
        case 400: return .invalidParameters(items)
        case 402: return .insufficientBalance
        case 404: return .notFound
        case 422: return .validationFailed(items)
        default: return .unexpectedStatus(code: status, items: items)
        }
    }

    /// Whole seconds from a `Retry-After` header: trimmed, only ASCII digits, fitting an `Int`.
    /// An HTTP-date, a sign, a fraction or an overflow gives `nil`.
    static func retryAfterSeconds(_ header: String?) -> TimeInterval? {
        guard let trimmed = header?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty,
            trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
            let seconds = Int(trimmed)
        else { return nil }
        return TimeInterval(seconds)
    }
}
