import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// The DIDWW Verification API dialect under `/api/v1/verifications`.
enum VerificationRoutes {
    static func register(on router: Router, engine: VerificationEngine, logger: Logger) {
        func reply(_ record: VerificationRecord, status: Int = 200) throws -> Response {
            try .json(VerificationJSON.envelope(record, now: engine.currentTime), status: status)
        }
        router.renderErrors(under: DIDWWWire.Endpoints.prefix) { error, _, context in
            DIDWWError.render(error, context: context, logger: logger)
        }
        let (applications, endpoints) = (ApplicationKeyAuthenticator(engine: engine), DIDWWWire.Endpoints.self)
        router.on(endpoints.start, applications) { request, _, caller in
            try reply(try await engine.start(try VerificationRequestBody.start(request), caller: caller), status: 201)
        }
        router.on(endpoints.status, applications) { _, context, caller in
            try reply(try await engine.verification(.id(context.parameter("id")), caller: caller))
        }
        router.on(endpoints.statusByNumber, applications) { _, context, caller in
            try reply(try await engine.verification(.number(Destination.digits(context.parameter("number"))), caller: caller))
        }
        for endpoint in [endpoints.report, endpoints.reportWithPatch] {
            router.on(endpoint, applications) { request, context, caller in
                let body = try VerificationRequestBody.report(request)
                return try reply(try await engine.report(.id(context.parameter("id")), method: body.method, code: body.code, caller: caller))
            }
        }
        for endpoint in [endpoints.reportByNumber, endpoints.reportByNumberWithPatch] {
            router.on(endpoint, applications) { request, context, caller in
                let body = try VerificationRequestBody.report(request)
                let target = VerificationTarget.number(Destination.digits(context.parameter("number")))
                return try reply(try await engine.report(target, method: body.method, code: body.code, caller: caller))
            }
        }
    }
}
