/// Code that runs around every route of a group.
///
/// Both hooks are synchronous so that routes with inline handlers stay on the fast path;
/// work that waits on the network belongs in an `async` handler instead.
public protocol Middleware: Sendable {
    /// Runs before the handler. Throw to answer instead of the handler; set
    /// `context.principal` to pass on who the caller is.
    func before(_ request: Request, context: inout RequestContext) throws
    /// Runs after the handler (or after an error was rendered), innermost first.
    func after(_ request: Request, context: RequestContext, response: inout Response)
}

extension Middleware {
    public func before(_ request: Request, context: inout RequestContext) throws {}
    public func after(_ request: Request, context: RequestContext, response: inout Response) {}
}
