import Foundation
import GatehouseCore
import GatehouseCrypto

/// Reads `.voice` messages out in a call with the Vonage Voice API: `POST
/// https://api.nexmo.com/v1/calls` with a per-request application JWT and an inline NCCO of two
/// `talk` actions (the body twice, its digits already spaced, in the message's language).
/// The receipt carries the call's `uuid`, which the call's event webhooks name.
public struct VonageVoiceDelivery: MessageDelivery {
    /// `https://api.nexmo.com`.
    public static let defaultBaseURL = URL(string: "https://api.nexmo.com")!

    let from: String
    let eventURL: URL?
    let baseURL: URL
    let token: VonageApplicationToken
    let exchange: ProviderExchange

    /// - Parameters:
    ///   - applicationId: the Vonage application the number is linked to.
    ///   - privateKeyPEM: that application's private key (`private.key`); throws if it is not an RSA key.
    ///   - from: the calling number, digits only.
    ///   - eventURL: where Vonage posts the call's status events (verify them with `VonageSignedWebhook`).
    ///   - random: makes each token's `jti`.
    ///   - timeout, retry: as for `TwilioSMSDelivery`.
    public init(
        applicationId: String, privateKeyPEM: String, from: String, eventURL: URL? = nil, baseURL: URL = VonageVoiceDelivery.defaultBaseURL,
        http: any OutboundHTTP, clock: any Clock, random: any RandomSource, timeout: TimeInterval = 10,
        retry: DeliveryRetryPolicy = .standard
    ) throws {
        self.from = from
        self.eventURL = eventURL
        self.baseURL = baseURL
        let key: RS256PrivateKey
        do {
            key = try RS256PrivateKey(pem: privateKeyPEM)
        } catch .invalidKey(let problem) {
            throw DeliveryError("Vonage private key is \(problem)")
        } catch {
            throw DeliveryError("Vonage private key could not be read")
        }
        token = VonageApplicationToken(applicationId: applicationId, key: key, clock: clock, random: random)
        exchange = ProviderExchange(name: "Vonage Voice", http: http, clock: clock, timeout: timeout, retry: retry, secrets: [])
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        guard message.channel == .voice else { throw DeliveryError("Vonage Voice cannot send a \(message.channel.rawValue) message") }
        _ = try ProviderFields.e164(message.to)
        let language = ProviderFields.spokenLanguage(message.language)
        let talk = CallRequest.Action(action: "talk", text: message.body, language: language)
        let call = CallRequest(
            to: [.init(type: "phone", number: message.to)], from: .init(type: "phone", number: from), ncco: [talk, talk],
            eventURL: eventURL.map { [$0.absoluteString] }, eventMethod: eventURL == nil ? nil : "POST")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(call)
        let url = try ProviderExchange.endpoint(baseURL, "/v1/calls")
        let uuid = try await exchange.perform({
            var request = OutboundRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("Bearer \(try token.mint())", forHTTPHeaderField: "Authorization")
            return request
        }, interpret: Self.interpret)
        return DeliveryReceipt(provider: "vonage", messageId: uuid)
    }

    /// The body of `POST /v1/calls`; nil members are left out.
    struct CallRequest: Encodable {
        struct Endpoint: Encodable {
            let type: String
            let number: String
        }
        struct Action: Encodable {
            let action: String
            let text: String
            let language: String
        }
        let to: [Endpoint]
        let from: Endpoint
        let ncco: [Action]
        let eventURL: [String]?
        let eventMethod: String?
        enum CodingKeys: String, CodingKey { case to, from, ncco, eventURL = "event_url", eventMethod = "event_method" }
    }

    private struct Created: Decodable { let uuid: String }

    /// Vonage's errors are problem documents (`type`, `title`, `detail`, sometimes
    /// `invalid_parameters`); older answers carry `error_title`.
    private struct Problem: Decodable {
        let title: String?
        let detail: String?
        let errorTitle: String?
        enum CodingKeys: String, CodingKey { case title, detail, errorTitle = "error_title" }
    }

    static func interpret(_ data: Data, _ response: OutboundResponse) throws -> String {
        let status = response.statusCode
        if (200..<300).contains(status) {
            guard let created = try? JSONDecoder().decode(Created.self, from: data), !created.uuid.isEmpty else {
                throw DeliveryError("Vonage Voice answered \(status) without a uuid")
            }
            return created.uuid
        }
        let problem = try? JSONDecoder().decode(Problem.self, from: data)
        var text = "Vonage Voice answered \(status)"
        if let title = ProviderExchange.excerpt(problem?.title ?? problem?.errorTitle) { text += ": \(title)" }
        if let detail = ProviderExchange.excerpt(problem?.detail) { text += " (\(detail))" }
        throw DeliveryError(text, retryable: ProviderExchange.isRetryable(status: status))
    }
}
