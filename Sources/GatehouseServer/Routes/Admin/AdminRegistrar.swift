import GatehouseHTTP
import GatehouseWire

/// Registers the admin API's routes from their declarations (`AdminWire.Endpoints`), each
/// behind the admin token. The declaration's types are the route's: a body is decoded into
/// `Body` once by the admin API's strict reader (`StrictJSON`) before the handler runs, and the
/// handler's `Reply` is the answer (`NoBody` answers 204):
///
/// ```swift
/// admin.on(AdminWire.Endpoints.createTenant, status: 201) { body, _ in
///     AdminWire.Tenant(try await directory.createTenant(name: body.name))
/// }
/// ```
struct AdminRegistrar: Sendable {
    let router: Router
    let authentication: AdminAuthentication

    /// A route without a body; the handler reads the path and query from the request and context.
    func on<Reply: Encodable & Sendable>(
        _ endpoint: Endpoint<NoBody, Reply>, status: Int = 200, _ handler: @escaping @Sendable (Request, RequestContext) async throws -> Reply
    ) {
        router.on(endpoint, authentication) { request, context, _ in try Self.answer(try await handler(request, context), status: status) }
    }

    /// A route with a JSON body. `fields`: the members the route takes, refused by name before
    /// anything else when another is sent (nil: those `Body` reads); `integers`: members that must
    /// be exact integers in their range, refused with a message naming it (see `StrictJSON`);
    /// `emptyIsObject`: an empty body reads as `{}`.
    func on<Body: Decodable & Sendable, Reply: Encodable & Sendable>(
        _ endpoint: Endpoint<Body, Reply>, status: Int = 200, maxBodySize: Int? = nil, fields: Set<String>? = nil,
        integers: [String: ClosedRange<Int>] = [:], emptyIsObject: Bool = false,
        _ handler: @escaping @Sendable (Body, RequestContext) async throws -> Reply
    ) {
        router.on(endpoint, authentication, maxBodySize: maxBodySize) { request, context, _ in
            let body = try StrictJSON.decode(Body.self, from: request, fields: fields, integers: integers, emptyIsObject: emptyIsObject)
            return try Self.answer(try await handler(body, context), status: status)
        }
    }

    private static func answer<Reply: Encodable>(_ reply: Reply, status: Int) throws -> Response {
        reply is NoBody ? .empty() : try .json(reply, status: status)
    }
}
