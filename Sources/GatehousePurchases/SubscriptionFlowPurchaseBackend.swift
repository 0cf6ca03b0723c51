import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports to the SubscriptionFlow dialect with the customer's account token pair (seed 003).
public struct SubscriptionFlowPurchaseBackend: PurchaseBackend {
    /// The pair the app's backend issued for the signed-in customer.
    public struct Pair: Sendable, Equatable {
        /// Sent as `X-SF-Account-Token`; also the purchases' `appAccountToken`.
        public let accountToken: String
        /// Sent as `X-SF-Client-Secret`.
        public let clientSecret: String
        /// A pair.
        public init(accountToken: String, clientSecret: String) {
            self.accountToken = accountToken
            self.clientSecret = clientSecret
        }
    }

    let http: HTTPClient
    /// The pair on every request; on a 401 the current one is fetched once and the request sent again.
    let credentials: CredentialInterceptor<Pair>
    /// Returns the pair; `refresh: true` asks the app's backend for the current one (after a 401).
    let pair: @Sendable (_ refresh: Bool) async throws -> Pair

    /// A backend for the server at `baseURL` (before `/api/v1`); `pair(refresh:)` supplies the account token pair.
    public init(baseURL: URL, transport: any Transport = URLSessionTransport(), pair: @escaping @Sendable (_ refresh: Bool) async throws -> Pair) {
        http = HTTPClient(
            baseURL: baseURL, transport: transport, accept: "application/json",
            hooks: PurchasesError.hooks { answer in
                let failure = try? JSONDecoder().decode(SubscriptionFlowWire.Failure.self, from: answer.data)
                return .api(
                    status: answer.status, code: failure.map { PurchasesErrorCode(rawValue: $0.code) }, message: failure?.message ?? "HTTP \(answer.status)",
                    retryAfter: answer.retryAfter)
            })
        self.pair = pair
        credentials = CredentialInterceptor(credential: { rejected in try await pair(rejected != nil) }) { pair, request in
            request.setValue(pair.accountToken, forHTTPHeaderField: "X-SF-Account-Token")
            request.setValue(pair.clientSecret, forHTTPHeaderField: "X-SF-Client-Secret")
        }
    }

    /// The account token of the current pair, to tag purchases with.
    public func appAccountToken() async -> UUID? {
        (try? await pair(false)).flatMap { UUID(uuidString: $0.accountToken) }
    }

    /// Sends the signed transaction; never throws, the verdict says what to do.
    public func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict {
        await report(SubscriptionFlowWire.PurchaseReport(signedTransaction: transaction.jwsRepresentation))
    }

    /// Reports a Google Play purchase (the Play Billing `Purchase`'s token and product), for an
    /// app that shares Swift code with its Android build; tag the purchase with
    /// ``appAccountToken()`` as its `obfuscatedAccountId` when launching the billing flow, so it
    /// links only to this customer. Never throws: the verdict says what to do.
    public func reportGooglePlayPurchase(productId: String, purchaseToken: String) async -> ReportVerdict {
        await report(SubscriptionFlowWire.PurchaseReport(purchaseToken: purchaseToken, productId: productId))
    }

    private func report(_ report: SubscriptionFlowWire.PurchaseReport) async -> ReportVerdict {
        let body = try? JSONEncoder().encode(report)
        let answer: HTTPResponse
        do {
            answer = try await send(SubscriptionFlowWire.Endpoints.reportPurchase, body: body)
        } catch {
            return .retryLater(reason: String(describing: error), retryAfter: nil)
        }
        switch answer.status {
        case 200:
            let link = try? JSONDecoder().decode(SubscriptionFlowWire.Envelope<SubscriptionFlowWire.PurchaseLink>.self, from: answer.data)
            return .accepted(PurchaseReceipt(kind: .linked, sandbox: link?.data.sandbox ?? false))
        case 409, 422:
            let failure = try? JSONDecoder().decode(SubscriptionFlowWire.Failure.self, from: answer.data)
            return .refused(status: answer.status, code: failure.map { PurchasesErrorCode(rawValue: $0.code) }, message: failure?.message ?? "refused")
        default:
            // 401 after one fresh pair, 429, 5xx: leave it unfinished and try again later.
            return .retryLater(reason: "HTTP \(answer.status)", retryAfter: answer.retryAfter)
        }
    }

    /// The customer's entitlements: usable while any is listed, until the latest `expires_at`.
    public func entitlement() async throws -> EntitlementSnapshot {
        let answer = try await send(SubscriptionFlowWire.Endpoints.clientEntitlements, body: nil)
        guard answer.status == 200 else { throw http.hooks.status(answer) }
        let list = try http.decode(SubscriptionFlowWire.Envelope<[SubscriptionFlowWire.Entitlement]>.self, from: answer.data).data
        let ends = list.compactMap { $0.expiresAt.flatMap(WireDate.parse) }
        // SubscriptionFlow sends no serverTime: the HTTP Date header is the server's clock.
        let serverTime = answer.header("Date").flatMap(Self.httpDate) ?? Date()
        return EntitlementSnapshot(
            canExecuteGatedWorkflow: !list.isEmpty, validUntil: ends.max(), entitlementStatus: list.isEmpty ? "none" : "active",
            trialStatus: nil, trialOfferAvailable: false, plans: [], serverTime: serverTime)
    }

    /// Sends to a declared endpoint under the server's root (the SDK's base URL).
    private func send<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, body: Data?) async throws -> HTTPResponse {
        try await credentials.send(HTTPClient.request(endpoint.method.rawValue, http.url(endpoint, below: ""), body: body), through: http).answer
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
