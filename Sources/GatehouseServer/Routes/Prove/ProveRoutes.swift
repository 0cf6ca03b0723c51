import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehousePossessionEngine
import GatehouseWire

/// Prove's v3 server-to-server API: `POST /token` (client credentials, form-encoded) and
/// `POST /v3/start|validate|challenge|complete` with the token as bearer. Unknown fields are
/// ignored, as Prove's own API does for fields newer than a client.
enum ProveRoutes {
    struct Options: Sendable {
        /// The base URL devices reach this server at, for the authToken's `iss`.
        var issuer: @Sendable () -> String
        /// `/token` calls per client address per minute on this node.
        var tokenPerMinute = 60
    }

    static func register(on router: Router, engine: PossessionEngine, options: Options, logger: Logger) {
        for prefix in ["/token", "/v3"] {
            router.renderErrors(under: prefix) { error, _, context in ProveError.render(error, context: context, logger: logger) }
        }
        let tokens = PerMinuteLimit(name: "prove-token", perMinute: options.tokenPerMinute, environment: engine.environment) { retryAfter in
            ProveError(429, .rateLimited, "too many token requests", retryAfter: retryAfter)
        }
        let (endpoints, clients) = (ProveWire.Endpoints.self, ProveClientAuthenticator(engine: engine))
        router.on(endpoints.token, ClientCredentialsGrant(tokens: tokens), maxBodySize: 4096, body: .any) { _, _, credentials in
            let issued = try await engine.accessToken(clientID: credentials.clientID, clientSecret: credentials.clientSecret)
            var response = try Response.json(ProveWire.TokenResponse(accessToken: issued.token, expiresIn: issued.expiresIn))
            response.headers.set("Cache-Control", "no-store")
            return response
        }
        router.on(endpoints.start, clients, maxBodySize: 16 << 10) { request, _, who in
            let body = try request.decode(ProveWire.StartRequest.self)
            let started = try await engine.start(StartInput(body), caller: who, issuer: options.issuer())
            return try .json(ProveWire.StartResponse(authToken: started.authToken, correlationId: started.correlationId, next: next(started.next)))
        }
        router.on(endpoints.validate, clients, maxBodySize: 16 << 10) { request, _, who in
            let body = try request.decode(ProveWire.ValidateRequest.self)
            let result = try await engine.validate(caller: who, correlationId: body.correlationId)
            return try .json(ProveWire.ValidateResponse(
                success: result.success, challengeMissing: result.challengeMissing, phoneNumber: result.phoneNumber, next: next(result.next)))
        }
        router.on(endpoints.challenge, clients, maxBodySize: 16 << 10) { request, _, who in
            let body = try request.decode(ProveWire.ChallengeRequest.self)
            let result = try await engine.challenge(caller: who, correlationId: body.correlationId, dob: body.dob, ssn: body.ssn)
            return try .json(ProveWire.ChallengeResponse(success: result.success, individual: result.individual.map(ProveWire.Individual.init), next: next(result.next)))
        }
        router.on(endpoints.complete, clients, maxBodySize: 64 << 10) { request, _, who in
            let body = try request.decode(ProveWire.CompleteRequest.self)
            let result = try await engine.complete(caller: who, correlationId: body.correlationId, individual: body.individual.map(Individual.init))
            return try .json(ProveWire.CompleteResponse(
                success: result.success, next: next(result.next), idv: result.comparison.map(ProveWire.IdentityVerification.init),
                changeDetected: result.changeDetected))
        }
    }

    static func next(_ step: String) -> [String: String] { ProveWire.Step(rawValue: step)?.next ?? ProveWire.Step.done.next }
}

/// The client credentials of `POST /token`: RFC 6749 §4.4 form fields, or HTTP Basic (§2.3.1).
struct TokenForm {
    let clientID: String
    let clientSecret: String

    init(_ request: Request) throws {
        let fields: [String: String]
        do {
            fields = try URLEncodedForm(request).fields
        } catch .notAForm {
            throw ProveError(400, .invalidRequest, "the body must be application/x-www-form-urlencoded")
        } catch .notUTF8 {
            throw ProveError(400, .invalidRequest, "the body is not UTF-8")
        } catch .repeated {
            throw ProveError(400, .invalidRequest, "a field appears more than once")
        }
        guard let grant = fields["grant_type"], !grant.isEmpty else { throw ProveError(400, .fieldMissing, "field 'grant_type' is missing") }
        guard grant == "client_credentials" else { throw ProveError(400, .fieldInvalid, "grant_type must be client_credentials") }
        if let basic = request.headers["Authorization"], basic.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6)).trimmingCharacters(in: .whitespaces)).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":")
        {
            // RFC 6749 §2.3: one way of authenticating per request.
            guard fields["client_id"] == nil, fields["client_secret"] == nil else {
                throw ProveError(400, .invalidRequest, "send the client credentials either with HTTP Basic or in the form, not both")
            }
            clientID = Request.percentDecoded(String(decoded[..<colon]))
            clientSecret = Request.percentDecoded(String(decoded[decoded.index(after: colon)...]))
            return
        }
        guard let id = fields["client_id"], !id.isEmpty else { throw ProveError(400, .fieldMissing, "field 'client_id' is missing") }
        guard let secret = fields["client_secret"], !secret.isEmpty else { throw ProveError(400, .fieldMissing, "field 'client_secret' is missing") }
        (clientID, clientSecret) = (id, secret)
    }
}
