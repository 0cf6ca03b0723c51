import Foundation
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ways a dialect names its endpoints, all resolved against `baseURL`.
extension HTTPClient {
    /// `base/<path>`: contract paths (with a query, if any) are relative to the base path, so a
    /// leading `/` is dropped rather than escaping it.
    package func url(path: String) -> URL? {
        var base = baseURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        var relative = path
        while relative.hasPrefix("/") { relative.removeFirst() }
        return URL(string: base + relative)
    }

    /// `base/<c1>/<c2>…`, each component appended and percent-encoded on its own, so a value can
    /// never reach another path and no double slash appears.
    package func url(components: [String]) -> URL {
        components.reduce(baseURL) { $0.appending(component: $1) }
    }

    /// The URL of `endpoint` under this client's base, which ends at `mount` (`/api`): each
    /// `:name` filled from `values` and percent-encoded as one path segment, the rest (`*`)
    /// appended segment by segment.
    package func url<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, below mount: String, _ values: [String: String] = [:]) -> URL {
        var template = endpoint.template
        if template.hasPrefix(mount + "/") || template == mount { template.removeFirst(mount.count) }
        let components = template.split(separator: "/").flatMap { segment -> [String] in
            if segment.hasPrefix(":") { return [values[String(segment.dropFirst())] ?? ""] }
            if segment == "*" { return (values["path"] ?? "").split(separator: "/").map(String.init) }
            return [String(segment)]
        }
        return url(components: components)
    }

    /// The path of `endpoint` relative to a base that ends at `mount`, with no leading slash, as
    /// the Datacove modules build requests (resolved under the base when sent).
    package static func relativePath<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, below mount: String, _ values: [String: String] = [:]) -> String {
        var path = endpoint.path(below: mount, values)
        while path.hasPrefix("/") { path.removeFirst() }
        return path
    }

    /// An RFC 3986 reference against the base: `/admin/v1/…` starts at the server's root.
    package func url(reference: String) -> URL? {
        URL(string: reference, relativeTo: baseURL)?.absoluteURL
    }

    /// A request relative to the base (resolved when sent), as the Datacove modules and apps build them.
    package static func request(_ method: String, path: String, body: Data? = nil) -> URLRequest? {
        guard let url = URL(string: path) else { return nil }
        return request(method, url, body: body)
    }

    /// A request for `url` with an optional body (its `Content-Type` is added when sent).
    package static func request(_ method: String, _ url: URL, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    /// `value` as JSON with a default encoder; a failure goes through `hooks.encoding`.
    package func json(_ value: some Encodable) throws -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw hooks.encoding(type(of: value), error)
        }
    }

    /// Relative URLs resolve under the base; absolute ones are sent as they are.
    func resolve(_ url: URL?) -> URL? {
        guard let url, url.scheme == nil else { return url }
        return self.url(path: url.relativeString) ?? url
    }
}
