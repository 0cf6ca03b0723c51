import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// GSMA CAMARA Number Verification: the device opens the operator's authorization endpoint
/// with `prompt=none` over cellular (only the mobile network can authenticate it), the operator
/// redirects back with a code, and the server exchanges the code for a token and posts
/// `{"hashedPhoneNumber": sha256(E.164)}` to `/number-verification/v0/verify`.
public struct CamaraNumberVerification: CarrierProvider {
    public let name = "camara"
    static let scope = "number-verification:verify"
    let http: any OutboundHTTP
    let timeout: TimeInterval
    /// Refuses an address the operator's endpoints may not resolve to (private ones outside development).
    let vet: @Sendable (URL, _ allowPrivate: Bool) async throws -> Void
    /// Whether a development carrier may reach private addresses (a development server only);
    /// otherwise the addresses connected to are held to public ones, as vetted.
    let allowsPrivateAddresses: Bool

    public init(
        http: any OutboundHTTP, timeout: TimeInterval = 10, allowsPrivateAddresses: Bool = false,
        vet: @escaping @Sendable (URL, Bool) async throws -> Void
    ) {
        self.http = http
        self.timeout = timeout
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.vet = vet
    }

    /// A request to one of the operator's endpoints, held to the addresses `vet` allowed.
    func operatorRequest(_ url: URL, _ settings: CamaraSettings) -> OutboundRequest {
        var request = OutboundRequest(url: url, timeoutInterval: timeout)
        request.connectTimeout = timeout
        request.lowSpeedSeconds = timeout
        // A token or a verdict is a few hundred bytes.
        request.maxResponseBytes = 64 * 1024
        request.target = .carrier
        request.destinations = settings.development && allowsPrivateAddresses ? .any : .publicOnly
        return request
    }

    public func authorizationURL(_ settings: CamaraSettings, state: String, phoneNumber: String?) -> URL {
        var fields = [
            ("response_type", "code"), ("client_id", settings.clientId), ("redirect_uri", settings.redirectUri.absoluteString),
            ("scope", Self.scope), ("state", state), ("prompt", "none"),
        ]
        if let phoneNumber { fields.append(("login_hint", "tel:" + phoneNumber)) }
        return URL(string: settings.authorizationEndpoint.absoluteString + "?" + PercentEncoding.form(fields))!
    }

    public func verify(_ settings: CamaraSettings, clientSecret: String, code: String, phoneNumber: String) async -> CarrierResult {
        do {
            for url in [settings.tokenEndpoint, settings.apiBase] { try await vet(url, settings.development) }
        } catch {
            return .unavailable("operator address refused")
        }
        let token: String
        switch await exchange(settings, clientSecret: clientSecret, code: code) {
        case .success(let value): token = value
        case .failure(let reason): return .unavailable(reason)
        }
        var request = operatorRequest(settings.apiBase.appendingPathComponent("number-verification/v0/verify"), settings)
        request.httpMethod = "POST"
        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(UUID().uuidString.lowercased(), forHTTPHeaderField: "X-Correlator")
        let hashed = SHA256.hash(Data(phoneNumber.utf8)).hexString
        request.httpBody = Data(#"{"hashedPhoneNumber":"\#(hashed)"}"#.utf8)
        guard let (data, response) = try? await http.send(request) else { return .unavailable("verify unreachable") }
        struct Answer: Decodable { let devicePhoneNumberVerified: Bool }
        struct Refusal: Decodable { let code: String? }
        switch response.statusCode {
        case 200:
            guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else { return .unavailable("verify answer unreadable") }
            return answer.devicePhoneNumberVerified ? .verified : .notVerified
        case 400 where (try? JSONDecoder().decode(Refusal.self, from: data))?.code == "INVALID_ARGUMENT":
            return .invalidNumber
        default:
            let code = (try? JSONDecoder().decode(Refusal.self, from: data))?.code ?? "status \(response.statusCode)"
            return .unavailable("verify refused: " + PossessionEngine.token(code))
        }
    }

    private enum Exchange { case success(String), failure(String) }

    /// RFC 6749 §4.1.3 with client_secret_basic.
    private func exchange(_ settings: CamaraSettings, clientSecret: String, code: String) async -> Exchange {
        var request = operatorRequest(settings.tokenEndpoint, settings)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let basic = Data((PercentEncoding.escaped(settings.clientId) + ":" + PercentEncoding.escaped(clientSecret)).utf8)
        request.setValue("Basic " + basic.base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data(
            PercentEncoding.form([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", settings.redirectUri.absoluteString)]).utf8)
        guard let (data, response) = try? await http.send(request) else { return .failure("token endpoint unreachable") }
        struct Token: Decodable { let access_token: String }
        guard response.statusCode == 200, let token = try? JSONDecoder().decode(Token.self, from: data), !token.access_token.isEmpty else {
            return .failure("token endpoint answered \(response.statusCode)")
        }
        return .success(token.access_token)
    }
}
