import Foundation
import GatehouseCommerceEngine
import GatehouseHTTP
import GatehouseWire

/// SubscriptionFlow's `{status, data}` envelopes and its `+00:00` timestamps (seed 003).
enum SubscriptionFlowJSON {
    static func success(_ data: JSONValue, status: Int = 200) throws -> Response {
        try .json(["status": JSONValue.bool(true), "data": data], status: status)
    }

    static func token(_ issued: IssuedAccountToken) -> JSONValue {
        var json = token(issued.accountToken)
        if case .object(var fields) = json {
            fields["client_secret"] = .string(issued.clientSecret)
            fields["reused"] = .bool(issued.reused)
            json = .object(fields)
        }
        return json
    }

    static func token(_ token: AccountToken) -> JSONValue {
        .object([
            "account_token": .string(token.token), "customer_id": .string(token.customerId), "created_at": date(token.createdAt),
            "revoked_at": token.revokedAt.map(date) ?? .null,
        ])
    }

    static func entitlements(_ list: [CustomerEntitlement]) -> JSONValue {
        .array(list.map { entitlement in
            .object([
                "key": .string(entitlement.key), "name": .string(entitlement.name), "source": .string("AppStore"),
                "subscription_id": .string(entitlement.subscriptionId), "expires_at": entitlement.expiresAt.map(date) ?? .null,
                "grants": .array(entitlement.grants.map { grant in
                    .object([
                        "source": .string("AppStore"), "subscription_id": .string(grant.subscriptionId), "status": .string(grant.status),
                        "expires_at": grant.expiresAt.map(date) ?? .null,
                    ])
                }),
            ])
        })
    }

    /// `2026-11-03T09:00:00+00:00`.
    static func date(_ date: Date) -> JSONValue {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxxxx"
        return .string(formatter.string(from: date))
    }
}
