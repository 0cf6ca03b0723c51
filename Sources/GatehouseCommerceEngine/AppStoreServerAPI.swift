import Foundation
import GatehouseCore

/// A tenant's App Store Connect in-app purchase key: what signs App Store Server API requests.
public struct AppStoreCredentials: Sendable {
    /// The issuer id from App Store Connect (Users and Access → Integrations → In-App Purchase).
    public let issuerId: String
    /// The key id of the `.p8` key; goes in the JWT header's `kid`.
    public let keyId: String
    /// The `.p8` file's content: an unencrypted PKCS#8 PEM EC P-256 private key.
    public let privateKeyPEM: String
    /// The app's bundle id; goes in the JWT's `bid` claim.
    public let bundleId: String

    /// Credentials for one app.
    public init(issuerId: String, keyId: String, privateKeyPEM: String, bundleId: String) {
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
        self.bundleId = bundleId
    }
}

/// Why an App Store Server API call failed. `isRetryable` separates "try again later" (network,
/// 5xx, 429) from answers that will not change (404, 401, a malformed response).
public enum AppStoreAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The transaction id is not a string of digits; refused before any request.
    case invalidTransactionId(String)
    /// The credentials cannot sign (the `.p8` PEM does not parse as an EC P-256 key).
    case invalidCredentials(String)
    /// 404 in every environment tried (Apple's `TransactionIdNotFoundError` is errorCode 4040010).
    case notFound(errorCode: Int?)
    /// 401: Apple refused the JWT (wrong key, issuer, bundle id, or clock skew).
    case unauthorized
    /// 429: too many requests; `retryAfter` is the delay Apple asked for, in seconds, when it said.
    case rateLimited(retryAfter: TimeInterval?)
    /// 5xx: Apple's side failed.
    case server(status: Int)
    /// Another 4xx (e.g. 400 `InvalidTransactionIdError`): the request itself is wrong.
    case rejected(status: Int, errorCode: Int?)
    /// The request never got an HTTP answer (DNS, connect, TLS, timeout).
    case network(String)
    /// An answer that is not what the API documents (unexpected status, undecodable body,
    /// another app's data).
    case invalidResponse(String)

    /// True when the same request may succeed later: network failures, 5xx and 429.
    public var isRetryable: Bool {
        switch self {
        case .network, .server, .rateLimited: true
        default: false
        }
    }

    /// For logs.
    public var description: String {
        switch self {
        case .invalidTransactionId(let id): "invalid transaction id \(id.debugDescription)"
        case .invalidCredentials(let detail): "invalid App Store credentials: \(detail)"
        case .notFound(let code): "not found (errorCode \(code.map(String.init) ?? "none"))"
        case .unauthorized: "unauthorized (401)"
        case .rateLimited(let after): "rate limited (retry after \(after.map { "\($0)s" } ?? "unspecified"))"
        case .server(let status): "App Store server error \(status)"
        case .rejected(let status, let code): "rejected with \(status) (errorCode \(code.map(String.init) ?? "none"))"
        case .network(let detail): "network error: \(detail)"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        }
    }
}

/// One subscription group in a Get All Subscription Statuses answer.
public struct SubscriptionGroupStatus: Decodable, Sendable, Equatable {
    /// The group's identifier.
    public let subscriptionGroupIdentifier: String
    /// The latest transaction of each subscription chain in the group.
    public let lastTransactions: [LastTransaction]

    /// A chain's latest state; the signed fields still need `SignedDataVerifier`.
    public struct LastTransaction: Decodable, Sendable, Equatable {
        /// The chain's identity.
        public let originalTransactionId: String
        /// 1 active, 2 expired, 3 billing retry, 4 billing grace, 5 revoked.
        public let status: Int
        /// The latest signed transaction (verify with `SignedDataVerifier.verifyTransaction`).
        public let signedTransactionInfo: String
        /// The signed renewal info (verify with `SignedDataVerifier.verifyRenewalInfo`).
        public let signedRenewalInfo: String
    }
}

/// The App Store Server API client: Get Transaction Info and Get All Subscription Statuses,
/// production first, then sandbox when production does not know the transaction.
///
/// The answers carry Apple-signed JWS; this client does not trust them by itself. Callers pass
/// them to `SignedDataVerifier`, which checks the chain, bundle id and environment.
public struct AppStoreServerAPI: Sendable {
    /// Apple's production host.
    public static let defaultProductionURL = URL(string: "https://api.storekit.itunes.apple.com")!
    /// Apple's sandbox host.
    public static let defaultSandboxURL = URL(string: "https://api.storekit-sandbox.itunes.apple.com")!
    /// Seconds a request token stays valid; Apple accepts at most 60 minutes.
    public static let tokenLifetime: Int64 = 300

    /// Who signs the requests.
    public let credentials: AppStoreCredentials
    /// Where production requests go (the override when set).
    public let productionURL: URL
    /// Where sandbox requests go (the override when set).
    public let sandboxURL: URL
    let http: any OutboundHTTP
    let clock: any GatehouseCore.Clock

    /// A client; a non-nil `overrideURL` replaces both hosts.
    public init(
        credentials: AppStoreCredentials, http: any OutboundHTTP, clock: any GatehouseCore.Clock,
        productionURL: URL = AppStoreServerAPI.defaultProductionURL,
        sandboxURL: URL = AppStoreServerAPI.defaultSandboxURL,
        overrideURL: URL? = nil
    ) {
        self.credentials = credentials
        self.http = http
        self.clock = clock
        self.productionURL = overrideURL ?? productionURL
        self.sandboxURL = overrideURL ?? sandboxURL
    }

    /// Get Transaction Info: the signed transaction and the environment that answered.
    public func transactionInfo(id: String) async throws -> (signedTransaction: String, environment: AppStoreEnvironment) {
        try Self.validate(transactionId: id)
        let (data, environment) = try await getWithFallback(["inApps", "v1", "transactions", id])
        let body = try decode(TransactionInfoResponse.self, from: data)
        guard let signed = body.signedTransactionInfo, !signed.isEmpty else {
            throw AppStoreAPIError.invalidResponse("no signedTransactionInfo")
        }
        return (signed, environment)
    }

    /// Get All Subscription Statuses for the subscription `transactionId` belongs to.
    public func subscriptionStatuses(transactionId: String) async throws -> [SubscriptionGroupStatus] {
        try Self.validate(transactionId: transactionId)
        let (data, _) = try await getWithFallback(["inApps", "v1", "subscriptions", transactionId])
        let body = try decode(StatusResponse.self, from: data)
        if let bundleId = body.bundleId, bundleId != credentials.bundleId {
            throw AppStoreAPIError.invalidResponse("statuses for \(bundleId)")
        }
        return body.data ?? []
    }

    /// Throws `.invalidTransactionId` unless `id` is 1–64 ASCII digits (it goes into a URL path).
    static func validate(transactionId id: String) throws {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw AppStoreAPIError.invalidTransactionId(id)
        }
    }

    /// Production, then sandbox on 404 only: 401, 429, 5xx and network errors are not a sign
    /// that the transaction lives in sandbox.
    private func getWithFallback(_ path: [String]) async throws -> (Data, AppStoreEnvironment) {
        do {
            return (try await get(path, base: productionURL), .production)
        } catch AppStoreAPIError.notFound {
            return (try await get(path, base: sandboxURL), .sandbox)
        }
    }

    private func get(_ path: [String], base: URL) async throws -> Data {
        let url = path.reduce(base) { $0.appendingPathComponent($1) }
        // A purchase being verified waits on this: Apple answers in well under a second.
        var request = OutboundRequest(url: url, timeoutInterval: 15)
        request.target = .appStore
        request.httpMethod = "GET"
        request.setValue("Bearer " + (try authorizationToken()), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Gatehouse", forHTTPHeaderField: "User-Agent")

        let data: Data
        let response: OutboundResponse
        do {
            (data, response) = try await http.send(request)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw AppStoreAPIError.network("\(error)")
        }
        switch response.statusCode {
        case 200: return data
        case 401: throw AppStoreAPIError.unauthorized
        case 404: throw AppStoreAPIError.notFound(errorCode: Self.errorCode(in: data))
        case 429: throw AppStoreAPIError.rateLimited(retryAfter: retryAfter(response.value(forHTTPHeaderField: "Retry-After")))
        case 500...599: throw AppStoreAPIError.server(status: response.statusCode)
        case 400...499: throw AppStoreAPIError.rejected(status: response.statusCode, errorCode: Self.errorCode(in: data))
        default: throw AppStoreAPIError.invalidResponse("HTTP \(response.statusCode)")
        }
    }

    /// `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in seconds from now.
    func retryAfter(_ value: String?) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(clock.now).rounded(.up))
    }

    private static func errorCode(in data: Data) -> Int? {
        (try? JSONDecoder().decode(ErrorResponse.self, from: data))?.errorCode
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw AppStoreAPIError.invalidResponse("body does not decode as \(T.self)")
        }
    }
}

private struct TransactionInfoResponse: Decodable {
    let signedTransactionInfo: String?
}

private struct StatusResponse: Decodable {
    let environment: String?
    let bundleId: String?
    let data: [SubscriptionGroupStatus]?
}

private struct ErrorResponse: Decodable {
    let errorCode: Int?
    let errorMessage: String?
}
