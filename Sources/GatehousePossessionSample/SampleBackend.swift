import Foundation
import GatehouseProveClient
import GatehouseHTTP
import GatehouseWire

/// The app's own backend of seed 004: `/initialize` calls Start, `/verify` calls Validate
/// and then Challenge, and returns the pre-fill, `/finish` calls Complete with what the user
/// confirmed. A flow is found by the session cookie `/initialize` set (the seed's `/finish`
/// sends only the names); an `authId`, when sent, must be that session's.
public final class SampleBackend: Sendable {
    public let client: ProveClient
    public let server: Server
    private let sessions = SampleSessions()

    static let cookie = "sample_session"

    public init(client: ProveClient, host: String = "127.0.0.1", port: UInt16 = 0) {
        self.client = client
        let router = Router(bodyKind: .json)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxBodySize = 64 << 10
        server = Server(configuration: configuration, responder: Responder(router: router, errorLog: { _ in }))
        register(on: router)
    }

    public func start() throws { try server.start() }
    public func stop() async { await server.stop(grace: 1) }
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    private func register(on router: Router) {
        for path in ["/initialize", "/verify", "/finish"] { router.renderErrors(under: path) { error, _, _ in Self.render(error) } }
        router.on(.POST, "/initialize", .async { [client, sessions] request, _ in
            let body = try request.decode(SampleWire.Initialize.self)
            let started = try await client.start(ProveWire.StartRequest(
                flowType: body.flowType ?? "mobile", phoneNumber: body.phoneNumber, ssn: body.ssn, dob: body.dob, smsMessage: body.smsMessage,
                allowOTPRetry: body.allowOTPRetry))
            let cookie = await sessions.open(correlationId: started.correlationId)
            var response = try Response.json(SampleWire.Initialized(authToken: started.authToken))
            response.headers.set("Set-Cookie", "\(Self.cookie)=\(cookie); Path=/; HttpOnly; SameSite=Strict")
            return response
        })
        router.on(.POST, "/verify", .async { [client, sessions] request, _ in
            let body = try request.decode(SampleWire.Verify.self)
            let id = try await sessions.flow(authId: body.authId, cookie: Self.cookieValue(request))
            // Validate once per flow; a second /verify (the challenge after "challengeMissing") goes on from it.
            var challengeMissing = await sessions.validation(of: id)
            if challengeMissing == nil {
                let validated = try await client.validate(correlationId: id)
                guard validated.success, validated.next[ProveWire.Step.challenge.rawValue] != nil else {
                    return try .json(SampleWire.Verified(success: false))
                }
                challengeMissing = validated.challengeMissing
                await sessions.validated(id, challengeMissing: validated.challengeMissing)
            }
            if challengeMissing == true, body.dob == nil, body.ssn == nil {
                return try .json(SampleWire.Verified(success: false, challengeMissing: true))
            }
            let challenged = try await client.challenge(ProveWire.ChallengeRequest(correlationId: id, dob: body.dob, ssn: body.ssn))
            guard challenged.success, let person = challenged.individual else {
                return try .json(SampleWire.Verified(success: false, challengeMissing: challenged.next[ProveWire.Step.challenge.rawValue] != nil))
            }
            await sessions.keep(person, for: id)
            return try .json(SampleWire.Verified(
                success: true, firstName: person.firstName, lastName: person.lastName, addresses: person.addresses, emailAddresses: person.emailAddresses,
                dob: person.dob, ssn: person.ssn))
        })
        router.on(.POST, "/finish", .async { [client, sessions] request, _ in
            let body = try request.decode(SampleWire.Finish.self)
            let id = try await sessions.flow(authId: body.authId, cookie: Self.cookieValue(request))
            var person = await sessions.prefill(for: id) ?? ProveWire.Individual()
            person.firstName = body.firstName
            person.lastName = body.lastName
            if let address = body.address { person.addresses = [address] }
            if let email = body.emailAddress { person.emailAddresses = [email] }
            return try .json(try await client.complete(ProveWire.CompleteRequest(correlationId: id, individual: person)))
        })
    }

    static func cookieValue(_ request: Request) -> String? {
        request.headers["Cookie"]?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(cookie + "=") }.map { String($0.dropFirst(cookie.count + 1)) }
    }

    static func render(_ error: any Error) -> Response {
        let (status, body): (Int, SampleWire.Failure)
        switch error {
        case let failure as ProveClient.Failure: (status, body) = (failure.status == 401 ? 502 : failure.status, .init(error: failure.message, code: failure.code))
        case let error as HTTPError: (status, body) = (error.status, .init(error: error.message))
        default: (status, body) = (502, .init(error: "Gatehouse could not be reached"))
        }
        return (try? Response.json(body, status: status)) ?? Response(status: status)
    }
}

/// The sample's flows in memory: cookie → correlationId, and the pre-fill `/verify` returned.
actor SampleSessions {
    private var byCookie: [String: String] = [:]
    private var prefills: [String: ProveWire.Individual] = [:]

    func open(correlationId: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 24)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        let cookie = Data(bytes).base64EncodedString().replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
        byCookie[cookie] = correlationId
        return cookie
    }

    /// The session's flow; an `authId` must name that same flow, so knowing one hands nobody another's pre-fill.
    func flow(authId: String?, cookie: String?) throws -> String {
        guard let cookie, let id = byCookie[cookie], authId == nil || authId == id else {
            throw HTTPError(status: 404, code: "unknown_flow", message: "no flow for this session")
        }
        return id
    }

    private var validations: [String: Bool] = [:]

    func validated(_ id: String, challengeMissing: Bool) { validations[id] = challengeMissing }
    /// Whether Validate passed for this flow (then: whether it asked for a challenge); nil before.
    func validation(of id: String) -> Bool? { validations[id] }
    func keep(_ person: ProveWire.Individual, for id: String) { prefills[id] = person }
    func prefill(for id: String) -> ProveWire.Individual? { prefills[id] }
}
