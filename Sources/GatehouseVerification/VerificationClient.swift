import Foundation
import GatehouseClientCore
import GatehouseWire

/// Starts verifications, reports codes and reads status from a Gatehouse verification server.
///
/// Each method sends one request and never retries. Cancelling the calling task cancels the
/// request and throws `CancellationError`.
public struct VerificationClient: Sendable {
    /// This dialect's setup of the SDK's one HTTP client.
    let factory: RequestFactory
    /// The configured logger, kept as given (the client logs through `factory.http`).
    let logger: (any VerificationLogger)?

    /// Creates a client for `environment` (default `.production`, see ``VerifyEnvironment``).
    public init(environment: VerifyEnvironment = .production, auth: AuthorizationMethod, configuration: Configuration = .init()) {
        self.init(
            environment: environment, auth: auth, configuration: configuration,
            transport: URLSessionTransport(timeout: configuration.timeout))
    }

    /// Test hook: a client for `environment` over any transport.
    init(environment: VerifyEnvironment, auth: AuthorizationMethod, configuration: Configuration, transport: any Transport) {
        self.init(baseURL: environment.baseURL, auth: auth, configuration: configuration, transport: transport)
    }

    /// Test hook: a client for a base URL (before `/api/v1`) over any transport.
    init(baseURL: URL, auth: AuthorizationMethod, configuration: Configuration = .init(), transport: any Transport) {
        factory = RequestFactory(
            baseURL: baseURL, auth: auth, timeout: configuration.timeout, transport: transport, logger: configuration.logger)
        logger = configuration.logger
    }

    /// Starts a verification (`POST /api/v1/verifications`) and returns its handle.
    ///
    /// `destination` is sent as passed. `sms:` and `callout:` must match `method:`, or
    /// `VerificationError.channelMismatch` is thrown before any request. `custom` is forwarded
    /// to your request callback when it is not empty.
    @discardableResult
    public func start(
        destination: String,
        method: DeliveryMethod,
        sms: SMSOptions? = nil,
        callout: CalloutOptions? = nil,
        custom: String? = nil
    ) async throws -> Verification {
        // The server silently ignores a block for another channel, so this check is the only signal.
        if sms != nil, method != .sms { throw VerificationError.channelMismatch(expected: method) }
        if callout != nil, method != .callout { throw VerificationError.channelMismatch(expected: method) }
        let data = DIDWWWire.StartRequest(
            destination: destination,
            deliveryMethod: method.wireValue,
            sms: sms.flatMap { $0.isEmpty ? nil : $0.wire },
            callout: callout.flatMap { $0.isEmpty ? nil : $0.wire },
            custom: custom.flatMap { $0.isEmpty ? nil : $0 })
        let request = try factory.request(DIDWWWire.Endpoints.start, json: DIDWWWire.Envelope(data: data))
        let reply = try await send(request)
        guard let expiresAt = reply.expiresAt else {
            throw APIError.unexpectedResponse("missing or invalid expires_at on start")
        }
        return reply.verification(expiresAt: expiresAt)
    }

    /// Reports a code for a verification (`PUT /api/v1/verifications/{id}`) with its own delivery method.
    public func verify(_ verification: Verification, code: String) async throws -> VerificationResult {
        try await report(DIDWWWire.Endpoints.report, ["id": verification.id], code: code, method: verification.deliveryMethod)
    }

    /// Reads the current state of a verification (`GET /api/v1/verifications/{id}`).
    public func status(_ verification: Verification) async throws -> VerificationResult {
        try await send(factory.request(DIDWWWire.Endpoints.status, ["id": verification.id])).verificationResult
    }

    /// Reads the newest verification for a number (`GET /api/v1/verifications/by_number/{digits}`).
    ///
    /// Every non-digit is removed first; a value without digits throws `VerificationError.invalidNumber`.
    public func status(number: String) async throws -> VerificationResult {
        let digits = try PhoneNumberNormalizer.digits(number)
        return try await send(factory.request(DIDWWWire.Endpoints.statusByNumber, ["number": digits])).verificationResult
    }

    /// Reports a code to the newest verification for a number (`PUT /api/v1/verifications/by_number/{digits}`).
    ///
    /// `method` must match the verification's delivery method; a mismatch fails like a wrong code.
    public func verify(number: String, code: String, method: DeliveryMethod) async throws -> VerificationResult {
        let digits = try PhoneNumberNormalizer.digits(number)
        return try await report(DIDWWWire.Endpoints.reportByNumber, ["number": digits], code: code, method: method)
    }

    private func report(
        _ endpoint: Endpoint<DIDWWWire.Envelope<DIDWWWire.ReportRequest>, DIDWWWire.Endpoints.Reply>, _ values: [String: String], code: String,
        method: DeliveryMethod
    ) async throws -> VerificationResult {
        let body = DIDWWWire.Envelope(data: DIDWWWire.ReportRequest(deliveryMethod: method.wireValue, code: code))
        return try await send(factory.request(endpoint, values, json: body)).verificationResult
    }
}
