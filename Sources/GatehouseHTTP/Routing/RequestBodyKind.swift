/// What a route reads from a request body. The transport refuses any other kind, in the
/// path's dialect envelope, before the handler runs: one rule for every route.
public enum RequestBodyKind: Sendable {
    /// A JSON text: `Content-Type` `application/json` (or `…+json`, or none at all), read by
    /// `JSONReader`'s rules: linear time, bounded depth, no member named twice, no control
    /// characters in strings.
    case json
    /// Any bytes; the handler reads them itself.
    case any
}
