/// A refused commerce request; `code` is stable, `message` is for people.
public struct CommerceError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case validationFailed = "VALIDATION_FAILED"
        case notFound = "NOT_FOUND"
        case conflict = "CONFLICT"
    }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
