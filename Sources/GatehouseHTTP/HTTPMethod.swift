/// An HTTP request method, kept as its upper-case token.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// A method token as it arrived; the common ones need no allocation.
    init(token: String) {
        switch token {
        case "GET": self = .GET
        case "POST": self = .POST
        case "HEAD": self = .HEAD
        case "PUT": self = .PUT
        case "PATCH": self = .PATCH
        case "DELETE": self = .DELETE
        case "OPTIONS": self = .OPTIONS
        default: self.init(rawValue: token)
        }
    }

    public static let GET = HTTPMethod(rawValue: "GET")
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    public static let POST = HTTPMethod(rawValue: "POST")
    public static let PUT = HTTPMethod(rawValue: "PUT")
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")

    public var description: String { rawValue }
}
