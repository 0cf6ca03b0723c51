import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseFormats

/// How Datacove's verify-purchase answers map to what the manager does with a transaction.
enum DatacoveVerdict {
    /// Only a 200 with a known `kind` is accepted and only the purchase refusals are final; anything
    /// else (a proxy's 404, a 413, a 5xx, a body that is not ours) leaves the transaction for a retry.
    static func verdict(status: Int, data: Data, retryAfter: String?) -> ReportVerdict {
        let wait = HTTPResponse.retryAfterSeconds(retryAfter)
        if status == 200 {
            guard let result = try? JSONDecoder().decode(DatacoveWire.PurchaseResult.self, from: data),
                  let kind = PurchaseReceipt.Kind(rawValue: result.kind), kind != .linked
            else { return .retryLater(reason: "unexpected answer", retryAfter: nil) }
            return .accepted(PurchaseReceipt(
                kind: kind, creditsGranted: result.creditsGranted, entitlementStatus: result.entitlementStatus,
                currentPeriodEnd: result.currentPeriodEnd.flatMap(WireDate.parse), transferred: result.transferred ?? false))
        }
        let error = (try? JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: data))?.error
        let code = error?.code.map(PurchasesErrorCode.init(rawValue:))
        let message = error?.message ?? "HTTP \(status)"
        switch (status, code) {
        case (409, .purchaseLinkedToAnotherAccount?):
            return error?.canTransfer == true ? .transferOffered(message: message) : .refused(status: status, code: code, message: message)
        case (400, let code?) where finalRefusals.contains(code):
            return .refused(status: status, code: code, message: message)
        default:
            return .retryLater(reason: code?.rawValue ?? "HTTP \(status)", retryAfter: wait)
        }
    }

    /// The refusals no retry can change: the transaction itself is not acceptable here.
    static let finalRefusals: Set<PurchasesErrorCode> = [.purchaseInvalid, .productUnknown, .purchaseRevoked]

    /// A Datacove error answer as `PurchasesError.api`.
    static func error(_ answer: HTTPResponse) -> PurchasesError {
        let error = (try? JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: answer.data))?.error
        return .api(
            status: answer.status, code: error?.code.map(PurchasesErrorCode.init(rawValue:)),
            message: error?.message ?? error?.error ?? "HTTP \(answer.status)", retryAfter: answer.retryAfter)
    }
}
