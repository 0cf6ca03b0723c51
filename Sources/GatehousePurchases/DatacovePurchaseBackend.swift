import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports to the Datacove dialect with the signed-in session of the app (seed 000 §07).
///
/// The session is a closure, so this module needs no sign-in module; with `GatehouseAuth`:
///
///     let backend = DatacovePurchaseBackend { try await auth.session.authorizedResponse($0) }
public struct DatacovePurchaseBackend: PurchaseBackend {
    /// Sends a request whose URL is relative to the Datacove `/api` base with the session's bearer
    /// token, and answers every status but a session-ending 401 as it came.
    public typealias AuthorizedSend = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    let send: AuthorizedSend

    /// A backend sending through the signed-in session's `send`.
    public init(send: @escaping AuthorizedSend) {
        self.send = send
    }

    /// Datacove tags no purchase with an account token: the session says whose it is.
    public func appAccountToken() async -> UUID? { nil }

    /// Sends the transaction to verify-purchase; never throws, the verdict says what to do.
    public func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict {
        // With the JWS the server verifies offline; without it, it asks the App Store Server API by id.
        let body = DatacoveWire.VerifyPurchase(
            platformProductId: transaction.productID, transactionId: transaction.id,
            signedTransaction: transaction.jwsRepresentation.isEmpty ? nil : transaction.jwsRepresentation,
            transferToCurrentAccount: transferToCurrentAccount ? true : nil)
        return await verify(body)
    }

    /// Reports a Google Play purchase (the Play Billing `Purchase`'s token and product), for an
    /// app that shares Swift code with its Android build; the Play Billing client stays the
    /// app's. The session must be one the Android app's key signed in. Never throws: on
    /// `.accepted` the server has granted it and acknowledged it to Google.
    public func verifyGooglePlayPurchase(productId: String, purchaseToken: String, transferToCurrentAccount: Bool = false) async -> ReportVerdict {
        await verify(DatacoveWire.VerifyPurchase(
            platformProductId: productId, purchaseToken: purchaseToken, transferToCurrentAccount: transferToCurrentAccount ? true : nil))
    }

    private func verify(_ body: DatacoveWire.VerifyPurchase) async -> ReportVerdict {
        let answer: HTTPResponse
        do {
            answer = try await authorized(DatacoveWire.Endpoints.verifyPurchase, body: try JSONEncoder().encode(body))
        } catch {
            // Signed out, offline, cancelled: the transaction stays unfinished for the next try.
            return .retryLater(reason: String(describing: error), retryAfter: nil)
        }
        return DatacoveVerdict.verdict(status: answer.status, data: answer.data, retryAfter: answer.header("Retry-After"))
    }

    /// Maps an answer of `verify-purchase` to what the manager does with the transaction; see ``DatacoveVerdict``.
    static func verdict(status: Int, data: Data, retryAfter: String?) -> ReportVerdict {
        DatacoveVerdict.verdict(status: status, data: data, retryAfter: retryAfter)
    }

    /// Reads the account's entitlement, trial and plans.
    public func entitlement() async throws -> EntitlementSnapshot {
        try await snapshot(DatacoveWire.Endpoints.entitlement)
    }

    /// Starts the server trial (once per account) and answers the new state.
    public func startTrial() async throws -> EntitlementSnapshot {
        try await snapshot(DatacoveWire.Endpoints.startTrial)
    }

    private func snapshot<Body>(_ endpoint: Endpoint<Body, DatacoveWire.EntitlementSummary>) async throws -> EntitlementSnapshot {
        let answer = try await authorized(endpoint, body: nil)
        guard (200..<300).contains(answer.status) else { throw DatacoveVerdict.error(answer) }
        return try Self.snapshot(answer.data)
    }

    private func authorized<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, body: Data?) async throws -> HTTPResponse {
        let path = HTTPClient.relativePath(endpoint, below: DatacoveWire.Endpoints.mount)
        guard let request = HTTPClient.request(endpoint.method.rawValue, path: path, body: body) else { throw PurchasesError.unexpectedResponse(path) }
        let (data, response) = try await send(request)
        return HTTPResponse(data: data, response: response)
    }

    /// Reads the seed's entitlement answer into what the paywall and gated features need.
    static func snapshot(_ data: Data) throws -> EntitlementSnapshot {
        let summary: DatacoveWire.EntitlementSummary
        do {
            summary = try JSONDecoder().decode(DatacoveWire.EntitlementSummary.self, from: data)
        } catch {
            throw PurchasesError.unexpectedResponse("not an entitlement answer: \(error)")
        }
        guard let serverTime = WireDate.parse(summary.serverTime) else {
            throw PurchasesError.unexpectedResponse("not an entitlement answer: serverTime \(summary.serverTime)")
        }
        let canExecute = summary.canExecuteGatedWorkflow
        var ends: [Date] = []
        if ["active", "in_grace"].contains(summary.entitlement.status), let end = summary.entitlement.currentPeriodEnd.flatMap(WireDate.parse) {
            ends.append(end)
        }
        if summary.trial.status == "active", let end = summary.trial.endsAt.flatMap(WireDate.parse) { ends.append(end) }
        let plans = summary.plans.map { plan in
            EntitlementSnapshot.Plan(
                productId: plan.productId, platformProductId: plan.platformProductId, displayName: plan.displayName, interval: plan.interval,
                gatedWorkflowId: plan.gatedWorkflowId)
        }
        return EntitlementSnapshot(
            canExecuteGatedWorkflow: canExecute, validUntil: canExecute ? ends.max() : nil, entitlementStatus: summary.entitlement.status,
            trialStatus: summary.trial.status, trialOfferAvailable: summary.trialOffer.available, plans: plans, serverTime: serverTime)
    }
}
