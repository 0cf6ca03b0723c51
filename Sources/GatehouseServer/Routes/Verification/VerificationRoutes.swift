import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine

/// The DIDWW Verification API dialect under `/api/v1/verifications`.
enum VerificationRoutes {
    static func register(on router: Router, engine: VerificationEngine, logger: Logger) {
        func handler(_ body: @escaping @Sendable (Request, RequestContext, VerificationCaller) async throws -> Response) -> Handler {
            .async { request, context in try await body(request, context, try await engine.authenticate(DIDWWCredential.read(request), clientAddress: context.clientAddress)) }
        }
        func reply(_ record: VerificationRecord, status: Int = 200) throws -> Response {
            try .json(VerificationJSON.envelope(record, now: engine.currentTime), status: status)
        }
        router.renderErrors(under: "/api/v1/verifications") { error, _, context in
            DIDWWError.render(error, context: context, logger: logger)
        }
        router.group("/api/v1/verifications") { api in
            api.post("/", handler { request, _, caller in
                try reply(try await engine.start(try VerificationRequestBody.start(request), caller: caller), status: 201)
            })
            let byID = handler { _, context, caller in
                try reply(try await engine.verification(.id(context.parameter("id")), caller: caller))
            }
            let byNumber = handler { _, context, caller in
                try reply(try await engine.verification(.number(Destination.digits(context.parameter("number"))), caller: caller))
            }
            let reportByID = handler { request, context, caller in
                let body = try VerificationRequestBody.report(request)
                return try reply(try await engine.report(.id(context.parameter("id")), method: body.method, code: body.code, caller: caller))
            }
            let reportByNumber = handler { request, context, caller in
                let body = try VerificationRequestBody.report(request)
                let target = VerificationTarget.number(Destination.digits(context.parameter("number")))
                return try reply(try await engine.report(target, method: body.method, code: body.code, caller: caller))
            }
            api.get("/:id", byID)
            api.put("/:id", reportByID)
            api.patch("/:id", reportByID)
            api.get("/by_number/:number", byNumber)
            api.put("/by_number/:number", reportByNumber)
            api.patch("/by_number/:number", reportByNumber)
        }
    }
}
