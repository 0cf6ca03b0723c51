import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports to the SubscriptionFlow dialect with the customer's account token pair (seed 003).
public struct SubscriptionFlowPurchaseBackend: PurchaseBackend {
    /// The pair the app's backend issued for the signed-in customer.
    public struct Pair: Sendable, Equatable {
        public let accountToken: String
        public let clientSecret: String
        public init(accountToken: String, clientSecret: String) {
            self.accountToken = accountToken
            self.clientSecret = clientSecret
        }
    }

    let baseURL: URL
    let transport: any Transport
    /// Returns the pair; `refresh: true` asks the app's backend for the current one (after a 401).
    let pair: @Sendable (_ refresh: Bool) async throws -> Pair

    public init(baseURL: URL, transport: any Transport = URLSessionTransport(), pair: @escaping @Sendable (_ refresh: Bool) async throws -> Pair) {
        self.baseURL = baseURL
        self.transport = transport
        self.pair = pair
    }

    public func appAccountToken() async -> UUID? {
        (try? await pair(false)).flatMap { UUID(uuidString: $0.accountToken) }
    }

    public func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict {
        let body = try? JSONEncoder().encode(["store": "apple", "signed_transaction": transaction.jwsRepresentation])
        let answer: (Data, HTTPURLResponse)
        do {
            answer = try await send("POST", "api/v1/mobile-stores/client/purchases", body: body)
        } catch {
            return .retryLater(reason: String(describing: error), retryAfter: nil)
        }
        let (data, response) = answer
        let json = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object ?? [:]
        switch response.statusCode {
        case 200:
            let sandbox = json["data"]?.object?["sandbox"]?.bool ?? false
            return .accepted(PurchaseReceipt(kind: .linked, sandbox: sandbox))
        case 409, 422:
            return .refused(status: response.statusCode, code: json["code"]?.string, message: json["message"]?.string ?? "refused")
        default:
            // 401 after one fresh pair, 429, 5xx: leave it unfinished and try again later.
            return .retryLater(reason: "HTTP \(response.statusCode)", retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { TimeInterval($0) })
        }
    }

    public func entitlement() async throws -> EntitlementSnapshot {
        let (data, response) = try await send("GET", "api/v1/mobile-stores/client/entitlements", body: nil)
        guard response.statusCode == 200, let list = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object?["data"]?.array else {
            throw GatehouseClientError.unexpectedResponse("entitlements unavailable: HTTP \(response.statusCode)")
        }
        let ends = list.compactMap { $0.object?["expires_at"]?.string.flatMap(WireDate.parse) }
        // SubscriptionFlow sends no serverTime: the HTTP Date header is the server's clock.
        let serverTime = response.value(forHTTPHeaderField: "Date").flatMap(Self.httpDate) ?? Date()
        return EntitlementSnapshot(
            canExecuteGatedWorkflow: !list.isEmpty, validUntil: ends.max(), entitlementStatus: list.isEmpty ? "none" : "active",
            trialStatus: nil, trialOfferAvailable: false, plans: [], serverTime: serverTime)
    }

    /// Sends with the pair; on a 401 fetches the current pair once and tries again.
    private func send(_ method: String, _ path: String, body: Data?) async throws -> (Data, HTTPURLResponse) {
        var answer = try await attempt(method, path, body: body, pair: try await pair(false))
        if answer.1.statusCode == 401 {
            answer = try await attempt(method, path, body: body, pair: try await pair(true))
        }
        return answer
    }

    private func attempt(_ method: String, _ path: String, body: Data?, pair: Pair) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(pair.accountToken, forHTTPHeaderField: "X-SF-Account-Token")
        request.setValue(pair.clientSecret, forHTTPHeaderField: "X-SF-Client-Secret")
        return try await transport.send(request)
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
