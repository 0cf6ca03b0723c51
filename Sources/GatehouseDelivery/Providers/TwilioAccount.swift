import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseFormats

/// A Twilio account and how to authenticate to its REST API (HTTP Basic): with the account's
/// Auth Token, or with an API key (`SK…` SID and secret), which Twilio recommends because it
/// can be revoked on its own. The credentials print as `<redacted>`.
public struct TwilioAccount: Sendable, CustomStringConvertible {
    /// `https://api.twilio.com`.
    public static let defaultBaseURL = URL(string: "https://api.twilio.com")!

    /// The account SID (`AC…`) that every resource path names.
    public let accountSid: String
    /// Where the API lives; tests point it at a local server.
    public let baseURL: URL
    let username: String
    let password: ProviderSecret

    /// Authenticates as the account itself, with its Auth Token.
    public init(accountSid: String, authToken: String, baseURL: URL = TwilioAccount.defaultBaseURL) {
        self.init(accountSid: accountSid, username: accountSid, password: authToken, baseURL: baseURL)
    }

    /// Authenticates with an API key of the account.
    public init(accountSid: String, apiKeySid: String, apiKeySecret: String, baseURL: URL = TwilioAccount.defaultBaseURL) {
        self.init(accountSid: accountSid, username: apiKeySid, password: apiKeySecret, baseURL: baseURL)
    }

    private init(accountSid: String, username: String, password: String, baseURL: URL) {
        self.accountSid = accountSid
        self.username = username
        self.password = ProviderSecret(password)
        self.baseURL = baseURL
    }

    public var description: String { "TwilioAccount(\(accountSid) as \(username), secret <redacted>)" }

    /// Creates a resource (`Messages`, `Calls`) under the account and returns the new SID.
    ///
    /// Twilio answers 201 with the resource, or an error object `{"code", "message",
    /// "more_info", "status"}`; its code goes into the error so an operator can look it up.
    func create(_ resource: String, _ fields: [(String, String)], exchange: ProviderExchange) async throws -> String {
        let url = try ProviderExchange.endpoint(baseURL, "/2010-04-01/Accounts/\(PercentEncoding.escaped(accountSid))/\(resource).json")
        let credentials = Base64.encode(Array("\(username):\(password.value)".utf8))
        return try await exchange.perform({
            var request = ProviderExchange.formPost(url, fields)
            request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
            return request
        }, interpret: { data, response in
            try Self.interpret(data, response, name: exchange.name)
        })
    }

    private struct Created: Decodable { let sid: String }

    private struct ErrorBody: Decodable {
        let code: Int?
        let message: String?
        let status: Int?
    }

    static func interpret(_ data: Data, _ response: OutboundResponse, name: String) throws -> String {
        let status = response.statusCode
        if (200..<300).contains(status) {
            guard let created = try? JSONDecoder().decode(Created.self, from: data), !created.sid.isEmpty else {
                throw DeliveryError("\(name) answered \(status) without a sid")
            }
            return created.sid
        }
        let body = try? JSONDecoder().decode(ErrorBody.self, from: data)
        var text = "\(name) answered \(status)"
        if let code = body?.code { text += ", error \(code)" }
        if let message = ProviderExchange.excerpt(body?.message) { text += ": \(message)" }
        throw DeliveryError(text, retryable: ProviderExchange.isRetryable(status: status))
    }
}
