import Foundation

/// Failures returned by the API or the transport layer.
public enum APIError: Error, Sendable, Equatable {
    /// HTTP 400: the request body or required parameters are malformed.
    case invalidParameters([APIErrorItem])
    /// HTTP 401: authentication failed or the mode is below the application's minimum; the body is ignored.
    case unauthorized
    /// HTTP 402: the account balance is insufficient to start a verification.
    case insufficientBalance
    /// HTTP 404: the verification could not be resolved.
    case notFound
    /// HTTP 422: validation or reporting failed, for example a wrong code or delivery method.
    case validationFailed([APIErrorItem])
    /// Any other unsuccessful HTTP status, including every 429, with its error items.
    case unexpectedStatus(code: Int, items: [APIErrorItem])
    /// The response body could not be decoded.
    case unexpectedResponse(String)
    /// Connectivity, DNS, TLS or timeout failure of the request.
    case transport(URLError)
}
