import Foundation
import GatehouseCore

/// Why a call to Google failed. `isRetryable` separates "try again later" (no answer, 5xx,
/// 429) from answers that will not change (a refused grant, a 4xx, a malformed answer).
public enum GoogleAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The token endpoint refused the service account's grant (`invalid_grant`: a wrong or
    /// deleted key, a clock far off); the answer's `error` code when it had one.
    case grantRefused(status: Int, error: String?)
    /// 404 or 410: Google knows no such purchase token (or no longer: tokens of purchases long
    /// expired are gone).
    case unknownPurchase
    /// Another 4xx from the Play API (401 or 403: the service account lacks access to the app).
    case refused(status: Int)
    /// 5xx or 429: Google's side failed or is shedding load.
    case unavailable(status: Int)
    /// The request never got an HTTP answer (DNS, connect, TLS, timeout).
    case network(String)
    /// An answer that is not what the API documents.
    case invalidResponse(String)

    public var isRetryable: Bool {
        switch self {
        case .network, .unavailable: true
        case .grantRefused, .unknownPurchase, .refused, .invalidResponse: false
        }
    }

    /// For logs: never a token or a key.
    public var description: String {
        switch self {
        case .grantRefused(let status, let error): "token grant refused with \(status) (\(error ?? "no error code"))"
        case .unknownPurchase: "no such purchase token"
        case .refused(let status): "the Play API refused the call with \(status)"
        case .unavailable(let status): "Google answered \(status)"
        case .network(let detail): "network error: \(detail)"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        }
    }
}

extension GoogleAPIError {
    /// Sends `request`: no answer at all is `.network`, a cancelled caller stays cancelled.
    static func send(_ request: OutboundRequest, on http: any OutboundHTTP) async throws -> (Data, OutboundResponse) {
        do {
            return try await http.send(request)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw GoogleAPIError.network("\(error)")
        }
    }
}
