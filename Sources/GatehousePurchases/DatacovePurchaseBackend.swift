import Foundation
import GatehouseAuth
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports to the Datacove dialect with the signed-in `GatehouseAuth` session (seed 000 §07).
public struct DatacovePurchaseBackend: PurchaseBackend {
    let session: SessionManager

    public init(session: SessionManager) {
        self.session = session
    }

    public init(auth: AuthClient) {
        self.init(session: auth.session)
    }

    public func appAccountToken() async -> UUID? { nil }

    public func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict {
        var body: [String: JSONValue] = [
            "platform": .string("apple"), "platformProductId": .string(transaction.productID), "transactionId": .string(transaction.id),
        ]
        // With the JWS the server verifies offline; without it, it asks the App Store Server API by id.
        if !transaction.jwsRepresentation.isEmpty { body["signedTransaction"] = .string(transaction.jwsRepresentation) }
        if transferToCurrentAccount { body["transferToCurrentAccount"] = .bool(true) }
        let data: Data
        let response: HTTPURLResponse
        do {
            var request = URLRequest(url: URL(string: "purchases/v1/verify-purchase")!)
            request.httpMethod = "POST"
            request.httpBody = try JSONEncoder().encode(body)
            (data, response) = try await session.authorizedResponse(request)
        } catch {
            // Signed out, offline, cancelled: the transaction stays unfinished for the next try.
            return .retryLater(reason: String(describing: error), retryAfter: nil)
        }
        return Self.verdict(status: response.statusCode, data: data, retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Maps an answer of `verify-purchase` to what the manager does with the transaction: only a
    /// 200 with a known `kind` is accepted and only the purchase refusals are final; anything else
    /// (a proxy's 404, a 413, a 5xx, a body that is not ours) leaves the transaction for a retry.
    static func verdict(status: Int, data: Data, retryAfter: String?) -> ReportVerdict {
        let json = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object ?? [:]
        let wait = retryAfter.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
        if status == 200 {
            guard let kind = json["kind"]?.string.flatMap(PurchaseReceipt.Kind.init(rawValue:)), kind != .linked else {
                return .retryLater(reason: "unexpected answer", retryAfter: nil)
            }
            return .accepted(PurchaseReceipt(
                kind: kind, creditsGranted: json["creditsGranted"]?.int, entitlementStatus: json["entitlementStatus"]?.string,
                currentPeriodEnd: json["currentPeriodEnd"]?.string.flatMap(WireDate.parse), transferred: json["transferred"]?.bool ?? false))
        }
        let error = json["error"]?.object ?? [:]
        let code = error["code"]?.string
        let message = error["message"]?.string ?? "HTTP \(status)"
        switch (status, code) {
        case (409, "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT"?):
            return error["canTransfer"]?.bool == true ? .transferOffered(message: message) : .refused(status: status, code: code, message: message)
        case (400, let code?) where finalRefusals.contains(code):
            return .refused(status: status, code: code, message: message)
        default:
            return .retryLater(reason: code ?? "HTTP \(status)", retryAfter: wait)
        }
    }

    /// The refusals no retry can change: the transaction itself is not acceptable here.
    static let finalRefusals: Set<String> = ["PURCHASE_INVALID", "PRODUCT_UNKNOWN", "PURCHASE_REVOKED"]

    public func entitlement() async throws -> EntitlementSnapshot {
        try await snapshot("GET", "purchases/v1/entitlement")
    }

    /// Starts the server trial (once per account) and answers the new state.
    public func startTrial() async throws -> EntitlementSnapshot {
        try await snapshot("POST", "purchases/v1/trial/start")
    }

    private func snapshot(_ method: String, _ path: String) async throws -> EntitlementSnapshot {
        var request = URLRequest(url: URL(string: path)!)
        request.httpMethod = method
        let (data, _) = try await session.authorizedRequest(request)
        return try Self.snapshot(data)
    }

    /// Reads the seed's entitlement answer (`trial`, `trialOffer`, `entitlement`, `plans`, `canExecuteGatedWorkflow`, `serverTime`).
    static func snapshot(_ data: Data) throws -> EntitlementSnapshot {
        guard let json = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object,
              let serverTime = json["serverTime"]?.string.flatMap(WireDate.parse)
        else { throw AuthError.unexpectedResponse("not an entitlement answer") }
        let entitlement = json["entitlement"]?.object ?? [:]
        let trial = json["trial"]?.object ?? [:]
        let canExecute = json["canExecuteGatedWorkflow"]?.bool ?? false
        var ends: [Date] = []
        if ["active", "in_grace"].contains(entitlement["status"]?.string), let end = entitlement["currentPeriodEnd"]?.string.flatMap(WireDate.parse) {
            ends.append(end)
        }
        if trial["status"]?.string == "active", let end = trial["endsAt"]?.string.flatMap(WireDate.parse) { ends.append(end) }
        let plans = (json["plans"]?.array ?? []).compactMap { $0.object }.map { plan in
            EntitlementSnapshot.Plan(
                productId: plan["productId"]?.string ?? "", platformProductId: plan["platformProductId"]?.string ?? "",
                displayName: plan["displayName"]?.string ?? "", interval: plan["interval"]?.string ?? "", gatedWorkflowId: plan["gatedWorkflowId"]?.string)
        }
        return EntitlementSnapshot(
            canExecuteGatedWorkflow: canExecute, validUntil: canExecute ? ends.max() : nil, entitlementStatus: entitlement["status"]?.string ?? "none",
            trialStatus: trial["status"]?.string, trialOfferAvailable: json["trialOffer"]?.object?["available"]?.bool ?? false, plans: plans,
            serverTime: serverTime)
    }
}
