import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` of each call: URL under `<base>/api/v1`, headers, timeout and body.
struct RequestFactory: Sendable {
    let baseURL: URL
    let auth: AuthorizationMethod
    let timeout: TimeInterval

    /// `<base>/api/v1/<components>`, each component appended and percent-encoded on its own,
    /// so a base path is kept and no double slash appears.
    func url(_ components: [String]) -> URL {
        (["api", "v1"] + components).reduce(baseURL) { $0.appending(component: $1) }
    }

    /// A request; `Content-Type` is set only when there is a body.
    func request(_ method: String, _ components: [String], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url(components))
        request.httpMethod = method
        request.timeoutInterval = timeout
        request.setValue(auth.headerValue, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(SDKVersion.userAgent, forHTTPHeaderField: "User-Agent")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// A request whose body is `value` encoded with a default `JSONEncoder`.
    func request(_ method: String, _ components: [String], json value: some Encodable) throws -> URLRequest {
        let body: Data
        do {
            body = try JSONEncoder().encode(value)
        } catch {
            throw APIError.unexpectedResponse("could not encode request body: \(error)")
        }
        return request(method, components, body: body)
    }
}
