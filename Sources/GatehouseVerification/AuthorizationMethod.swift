import Foundation

/// How requests authenticate against the Verification API.
///
/// The signed `application` mode is deliberately absent: it needs the application secret,
/// which an app on a device cannot keep.
public enum AuthorizationMethod: Sendable, Equatable {
    /// `Authorization: Application <appKey>`; the mode for apps on devices.
    case `public`(appKey: String)
    /// `Authorization: Basic base64(<appKey>:<secret>)`; only for trusted local development.
    case basic(appKey: String, secret: String)

    /// The `Authorization` header value.
    var headerValue: String {
        switch self {
        case .public(let appKey):
            return "Application \(appKey)"
        case .basic(let appKey, let secret):
            return "Basic " + Data("\(appKey):\(secret)".utf8).base64EncodedString()
        }
    }
}
