/// Code that runs around every route of a group.
///
/// `before` and `after` are synchronous so that routes with inline handlers stay on the fast
/// path. A middleware that must wait (a database lookup) implements `beforeAsync` instead and
/// sets `waits`; its group then takes `async` handlers only, so nothing blocks a thread.
public protocol Middleware: Sendable {
    /// Runs before the handler. Throw to answer instead of the handler. (Who the caller is
    /// is an `Authenticator`'s to say, typed, to the handler it guards.)
    func before(_ request: Request, context: inout RequestContext) throws
    /// Runs before an `async` handler; by default it is `before`.
    func beforeAsync(_ request: Request, context: inout RequestContext) async throws
    /// True when the middleware does its work in `beforeAsync` only.
    var waits: Bool { get }
    /// Runs after the handler (or after an error was rendered), innermost first.
    func after(_ request: Request, context: RequestContext, response: inout Response)
}

extension Middleware {
    public func before(_ request: Request, context: inout RequestContext) throws {}
    public func beforeAsync(_ request: Request, context: inout RequestContext) async throws {
        try before(request, context: &context)
    }
    public var waits: Bool { false }
    public func after(_ request: Request, context: RequestContext, response: inout Response) {}
}
