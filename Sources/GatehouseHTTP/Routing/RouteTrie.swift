// Safe: `exact` and the Nodes under `root` change only in `insert`, from `Router.add` while routes are registered, before
// the server's threads start; after that `match` only reads them. Nothing enforces the order (see Router).
/// A trie keyed by path segment: literals first, then one `:parameter` branch, then a
/// trailing `*` that takes the rest of the path.
final class RouteTrie: @unchecked Sendable {
    private final class Node {
        var literals: [Substring: Node] = [:]
        var parameter: (name: String, node: Node)?
        var catchAll: [HTTPMethod: Route] = [:]
        var routes: [HTTPMethod: Route] = [:]
    }

    private let root = Node()
    /// Templates without parameters, by exact path: most requests resolve with one hash.
    private var exact: [String: [HTTPMethod: Route]] = [:]

    func insert(_ route: Route) {
        if !route.template.contains(":"), !route.template.contains("*") {
            exact[route.template, default: [:]][route.method] = route
        }
        var node = root
        for segment in Self.segments(route.template) {
            if segment == "*" {
                node.catchAll[route.method] = route
                return
            }
            if segment.first == ":" {
                let name = String(segment.dropFirst())
                if let existing = node.parameter {
                    precondition(existing.name == name, "conflicting parameter names at \(route.template)")
                    node = existing.node
                } else {
                    let child = Node()
                    node.parameter = (name, child)
                    node = child
                }
            } else if let child = node.literals[segment] {
                node = child
            } else {
                let child = Node()
                node.literals[segment] = child
                node = child
            }
        }
        precondition(node.routes[route.method] == nil, "duplicate route \(route.method) \(route.template)")
        node.routes[route.method] = route
    }

    func match(method: HTTPMethod, path: String) -> RouteMatch {
        if let routes = exact[path] { return pick(method, from: routes, parameters: [:]) }
        var parameters: [String: String] = [:]
        guard let routes = find(Self.segments(path)[...], in: root, parameters: &parameters) else { return .notFound }
        return pick(method, from: routes, parameters: parameters)
    }

    private func pick(_ method: HTTPMethod, from routes: [HTTPMethod: Route], parameters: [String: String]) -> RouteMatch {
        if let route = routes[method] ?? (method == .HEAD ? routes[.GET] : nil) {
            return .found(route, parameters: parameters)
        }
        var allowed = Set(routes.keys)
        if allowed.contains(.GET) { allowed.insert(.HEAD) }
        allowed.insert(.OPTIONS)
        return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }

    private func find(
        _ segments: ArraySlice<Substring>, in node: Node, parameters: inout [String: String]
    ) -> [HTTPMethod: Route]? {
        guard let segment = segments.first else {
            if !node.routes.isEmpty { return node.routes }
            return node.catchAll.isEmpty ? nil : node.catchAll
        }
        let rest = segments.dropFirst()
        if let child = node.literals[segment], let found = find(rest, in: child, parameters: &parameters) {
            return found
        }
        if let (name, child) = node.parameter {
            var attempt = parameters
            attempt[name] = Request.percentDecoded(String(segment))
            if let found = find(rest, in: child, parameters: &attempt) {
                parameters = attempt
                return found
            }
        }
        if !node.catchAll.isEmpty {
            parameters["*"] = Request.percentDecoded(segments.joined(separator: "/"))
            return node.catchAll
        }
        return nil
    }

    /// Split on the byte: `/` is ASCII, so no segment starts or ends inside a character's
    /// bytes, and no grapheme is read on the way.
    static func segments(_ path: String) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
    }
}
