/// A refused commerce request, in the engine's own terms: `code` is stable and says what
/// went wrong, `message` explains it; each dialect maps the code to its status and envelope.
public struct CommerceError: Error, Equatable, Sendable {
    public enum Code: Sendable, CaseIterable {
        /// A value fails its check.
        case validationFailed
        /// No such thing for this tenant.
        case notFound
        /// The change contradicts something that already exists.
        case conflict
    }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
