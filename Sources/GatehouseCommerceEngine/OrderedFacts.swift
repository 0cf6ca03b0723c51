import Foundation
import GatehouseDatabase

/// The one ordering rule for what Apple says about a purchase, whether it arrives as a
/// notification or as a transaction the app (or the App Store Server API) reports.
///
/// Apple retries failed deliveries for days and the app reports whatever copy it holds, so facts
/// arrive in any order. Each part of the stored state remembers when the fact that last set it
/// was signed; a fact changes a part only if it was signed at or after that time, and then moves
/// the time forward. A fact is dated by its own signature: a transaction by its `signedDate`
/// (whether reported or nested in a notification), a notification's verdict (REFUND,
/// EXPIRED, ...) by the notification's `signedDate`. Parts are ordered separately, so a late
/// EXPIRED still ends a subscription whose refund was reversed meanwhile, and the final state does
/// not depend on the order of delivery.
struct OrderedFacts {
    /// A part of a subscription that facts set as a whole, and the column holding its time.
    enum Part: CaseIterable {
        /// `revoked_at` of the latest transaction: REFUND, REVOKE, REFUND_REVERSED, and every signed
        /// copy of that transaction (with or without `revocationDate`).
        case revocation
        /// `ended_at`, `billing_issue_at`, `grace_expires_at`: EXPIRED, DID_RENEW, DID_FAIL_TO_RENEW,
        /// GRACE_PERIOD_EXPIRED.
        case lapse
        /// `auto_renew`, from the renewal info any notification carries.
        case autoRenew

        var timeColumn: String {
            switch self {
            case .revocation: "revocation_as_of"
            case .lapse: "last_event_at"
            case .autoRenew: "auto_renew_as_of"
            }
        }
    }

    /// When the fact was signed.
    let signedAt: Date
    private var writes: [(part: Part, column: String, value: SQLValue)] = []

    init(signedAt: Date) {
        self.signedAt = signedAt
    }

    /// Whether a fact signed at `signedAt` may change a part last set by a fact signed at `latest`
    /// (nil: never set). Ties go to the later delivery.
    static func isCurrent(_ signedAt: Date, after latest: Date?) -> Bool {
        latest.map { signedAt >= $0 } ?? true
    }

    /// Records that this fact sets `column` (which belongs to `part`) to `value`.
    mutating func set(_ column: String, _ value: SQLValue, in part: Part) {
        writes.append((part, column, value))
    }

    /// The assignments that survive the rule against `row` (which holds every part's time
    /// column), each surviving part with its time moved to `signedAt`.
    func assignments(against row: Row) throws -> [(String, SQLValue)] {
        var result: [(String, SQLValue)] = []
        for part in Part.allCases where writes.contains(where: { $0.part == part }) {
            guard Self.isCurrent(signedAt, after: try row.get(part.timeColumn, as: Date?.self)) else { continue }
            result += writes.filter { $0.part == part }.map { ($0.column, $0.value) }
            result.append((part.timeColumn, signedAt.sqlValue))
        }
        return result
    }
}
