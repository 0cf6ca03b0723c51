import Foundation
import GatehouseCore
import GatehouseFormats

/// RFC 6749 §4.4: the client-credentials token request and how its answer is read.
extension ManagedAPIsEngine {
    /// The token and its lifetime in seconds (nil when `expires_in` is absent or unusable).
    func requestToken(definition: ManagedAPIDefinition, settings: ManagedAPIDefinition.OAuth2, secret: String) async throws -> (String, TimeInterval?) {
        try await vet(settings.tokenEndpoint, definition: definition)
        var form = [("grant_type", "client_credentials")]
        if !settings.scopes.isEmpty { form.append(("scope", settings.scopes.joined(separator: " "))) }
        var request = OutboundRequest(url: settings.tokenEndpoint)
        request.httpMethod = "POST"
        // Inside the lease, so that no other node takes over while this one still waits.
        request.timeoutInterval = Self.leaseSeconds - 5
        request.connectTimeout = 10
        request.lowSpeedSeconds = 15
        request.maxResponseBytes = 64 * 1024
        request.target = .tokenEndpoint
        // The address vetted is the one connected to.
        request.destinations = definition.development ? .any : .publicOnly
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        switch settings.tokenEndpointAuth {
        case .clientSecretBasic:
            // RFC 6749 §2.3.1: both halves form-encoded before they are joined.
            let pair = PercentEncoding.escaped(settings.clientID) + ":" + PercentEncoding.escaped(secret)
            request.setValue("Basic " + Data(pair.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        case .clientSecretPost:
            form += [("client_id", settings.clientID), ("client_secret", secret)]
        }
        request.httpBody = Data(PercentEncoding.form(form).utf8)
        let data: Data
        let response: OutboundResponse
        do {
            (data, response) = try await environment.http.send(request)
        } catch {
            throw ManagedAPIError.credentialUnavailable(.tokenEndpointUnreachable(definition: definition.name))
        }
        let answer = try? JSONDecoder().decode(TokenAnswer.self, from: data)
        guard (200..<300).contains(response.statusCode), let token = answer?.accessToken, Self.isUsableToken(token) else {
            if let error = answer?.error { throw ManagedAPIError.credentialUnavailable(.tokenEndpointRefused(definition: definition.name, error: error)) }
            throw ManagedAPIError.credentialUnavailable(.tokenEndpointAnswered(definition: definition.name, status: response.statusCode))
        }
        return (token, answer?.lifetime)
    }

    /// RFC 6750 `b64token` characters and no more than 8 KiB: a token goes into a header as it is.
    static func isUsableToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 8192 && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// A token endpoint's JSON, read leniently: `expires_in` as a number or a numeric string
    /// (some providers send `"3599"`), kept only between one second and one year.
    struct TokenAnswer: Decodable {
        var accessToken: String?
        var lifetime: TimeInterval?
        var error: String?

        enum CodingKeys: String, CodingKey { case accessToken = "access_token", expiresIn = "expires_in", error }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try? container.decode(String.self, forKey: .accessToken)
            let seconds = (try? container.decode(Double.self, forKey: .expiresIn))
                ?? (try? container.decode(String.self, forKey: .expiresIn)).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            lifetime = seconds.flatMap { $0.isFinite && (1...31_536_000).contains($0) ? $0 : nil }
            // Only an RFC 6749 error code is repeated in a message, never free text.
            error = (try? container.decode(String.self, forKey: .error)).flatMap { code in
                code.count <= 64 && code.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == 0x5F } ? code : nil
            }
        }
    }
}
