import Foundation
import GatehouseCore
import GatehouseDatabase

extension CommerceEngine {
    /// The stores a catalogue sells through.
    public static let providers = ["apple", "google"]

    /// Replaces the tenant's credit packages for a provider (`apple` or `google`), leaving the
    /// other's alone; answers the provider's packages.
    public func setCreditPackages(tenantID: String, provider: String, _ packages: [CreditPackage]) async throws -> [CreditPackage] {
        guard Self.providers.contains(provider) else { throw CommerceError.invalid("provider", .oneOf(Self.providers)) }
        guard Set(packages.map(\.platformProductId)).count == packages.count else {
            throw CommerceError(.validationFailed, .productListedTwice)
        }
        for package in packages {
            guard (1...1_000_000).contains(package.credits) else { throw CommerceError.invalid("credits", .range(1...1_000_000)) }
            guard Self.isBundleID(package.platformProductId) || !package.platformProductId.isEmpty else {
                throw CommerceError.invalid("platformProductId", .required)
            }
        }
        let ids = packages.map { _ in environment.ids.next().lowercased }
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            // Concurrent replacements take turns: the last one wins whole, never a mix of two.
            try db.takeTurn("credit-packages:" + tenantID)
            try db.execute("DELETE FROM commerce_credit_packages WHERE tenant_id = ? AND provider = ?", tenantID, provider)
            for (package, id) in zip(packages, ids) {
                try db.execute(
                    """
                    INSERT INTO commerce_credit_packages (id, tenant_id, provider, platform_product_id, credits, display_name)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [.text(id), .text(tenantID), .text(provider), .text(package.platformProductId), .integer(Int64(package.credits)),
                     package.displayName.sqlValue])
            }
            return try Self.creditPackages(db, tenantID, provider: provider)
        }
    }

    /// The tenant's credit packages sold through `provider`.
    public func creditPackages(tenantID: String, provider: String = "apple") async throws -> [CreditPackage] {
        guard Self.providers.contains(provider) else { throw CommerceError.invalid("provider", .oneOf(Self.providers)) }
        return try await database.read { db in try Self.creditPackages(db, tenantID, provider: provider) }
    }

    static func creditPackages(_ db: any DatabaseConnection, _ tenantID: String, provider: String) throws -> [CreditPackage] {
        try db.query(
            "SELECT * FROM commerce_credit_packages WHERE tenant_id = ? AND provider = ? ORDER BY platform_product_id", [.text(tenantID), .text(provider)]
        ).map {
            CreditPackage(
                provider: try $0.get("provider"), platformProductId: try $0.get("platform_product_id"), credits: try $0.get("credits"),
                displayName: try $0.get("display_name"))
        }
    }

    /// Adds a plan; its App Store product id, and its Google Play subscription (with its base
    /// plan, or without one), are each unique per tenant.
    public func createPlan(
        tenantID: String, displayName: String, interval: Plan.Interval, appleProductID: String, googleProductID: String? = nil,
        gatedWorkflowID: String?
    ) async throws -> Plan {
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw CommerceError.invalid("displayName", .length(1...200)) }
        guard !appleProductID.isEmpty, appleProductID.count <= 200 else { throw CommerceError.invalid("platformProductIds.apple", .required) }
        let google = try googleProductID.map { text in
            guard let id = GoogleSubscriptionID(text) else { throw CommerceError(.validationFailed, .googlePlay(.subscriptionID)) }
            return id
        }
        let id = environment.ids.next().lowercased
        let (now, invalidations) = (environment.clock.now, environment.invalidations)
        do {
            defer { invalidations.drop(cache: Self.planCacheName, key: tenantID) }
            return try await database.write { db in
                guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
                try invalidations.announce(db, cache: Self.planCacheName, key: tenantID)
                try db.execute(
                    """
                    INSERT INTO commerce_plans (id, tenant_id, display_name, plan_interval, apple_product_id, google_product_id,
                      google_base_plan_id, gated_workflow_id, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text(id), .text(tenantID), .text(name), .text(interval.rawValue), .text(appleProductID), (google?.subscriptionID).sqlValue,
                     (google?.basePlanID).sqlValue, gatedWorkflowID.sqlValue, now.sqlValue])
                return try Self.plans(db, tenantID).first { $0.productId == id }!
            }
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // Which store's id another plan holds (the App Store's, unless the Google one is taken).
            var googleTaken = false
            if let google {
                googleTaken = try await database.read { db in
                    try db.queryOne(
                        "SELECT id FROM commerce_plans WHERE tenant_id = ? AND google_product_id = ? AND COALESCE(google_base_plan_id, '') = ?",
                        tenantID, google.subscriptionID, google.basePlanID ?? "") != nil
                }
            }
            throw CommerceError(.conflict, googleTaken ? .googleSubscriptionTaken : .productTaken)
        }
    }

    public func plans(tenantID: String) async throws -> [Plan] {
        try await database.read { db in try Self.plans(db, tenantID) }
    }

    public func deletePlan(tenantID: String, productID: String) async throws {
        let invalidations = environment.invalidations
        let removed = try await database.write { db in
            try invalidations.announce(db, cache: Self.planCacheName, key: tenantID)
            return try db.execute("DELETE FROM commerce_plans WHERE id = ? AND tenant_id = ?", productID, tenantID)
        }
        invalidations.drop(cache: Self.planCacheName, key: tenantID)
        if removed == 0 { throw CommerceError.notFound(.plan) }
    }

    static func plans(_ db: any DatabaseConnection, _ tenantID: String) throws -> [Plan] {
        try db.query("SELECT * FROM commerce_plans WHERE tenant_id = ? ORDER BY created_at, id", [.text(tenantID)]).map { row in
            let subscription: String? = try row.get("google_product_id")
            let basePlan: String? = try row.get("google_base_plan_id")
            return Plan(
                productId: try row.get("id"), displayName: try row.get("display_name"),
                interval: Plan.Interval(rawValue: try row.get("plan_interval")) ?? .monthly,
                applePlatformProductId: try row.get("apple_product_id"),
                google: subscription.flatMap { GoogleSubscriptionID($0 + (basePlan.map { ":" + $0 } ?? "")) },
                gatedWorkflowId: try row.get("gated_workflow_id"))
        }
    }

    /// Turns each platform's server trial on or off and sets its length (1 to 365 days); nil keeps a value.
    public func updateTrialConfig(
        tenantID: String, iosEnabled: Bool?, iosDurationDays: Int?, androidEnabled: Bool? = nil, androidDurationDays: Int? = nil
    ) async throws -> TrialConfig {
        for days in [iosDurationDays, androidDurationDays].compactMap({ $0 }) where !(1...365).contains(days) {
            throw CommerceError.invalid("durationDays", .range(1...365))
        }
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            // One upsert merges the patch into the row it finds, so concurrent saves queue on the
            // row (PostgreSQL) instead of racing a delete and an insert into a duplicate key.
            let fallback = TrialConfig.default
            func flag(_ value: Bool?) -> SQLValue { value.map { .boolean($0) } ?? .null }
            func days(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
            try db.execute(
                """
                INSERT INTO commerce_trial_configs (tenant_id, ios_enabled, ios_duration_days, android_enabled, android_duration_days)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET
                    ios_enabled = COALESCE(?, commerce_trial_configs.ios_enabled),
                    ios_duration_days = COALESCE(?, commerce_trial_configs.ios_duration_days),
                    android_enabled = COALESCE(?, commerce_trial_configs.android_enabled),
                    android_duration_days = COALESCE(?, commerce_trial_configs.android_duration_days)
                """,
                [.text(tenantID), .boolean(iosEnabled ?? fallback.iosEnabled), .integer(Int64(iosDurationDays ?? fallback.iosDurationDays)),
                 .boolean(androidEnabled ?? fallback.androidEnabled), .integer(Int64(androidDurationDays ?? fallback.androidDurationDays)),
                 flag(iosEnabled), days(iosDurationDays), flag(androidEnabled), days(androidDurationDays)])
            return try Self.trialConfig(db, tenantID)
        }
    }

    public func trialConfig(tenantID: String) async throws -> TrialConfig {
        try await database.read { db in try Self.trialConfig(db, tenantID) }
    }

    static func trialConfig(_ db: any DatabaseConnection, _ tenantID: String) throws -> TrialConfig {
        guard let row = try db.queryOne("SELECT * FROM commerce_trial_configs WHERE tenant_id = ?", tenantID) else { return .default }
        let fallback = TrialConfig.default
        return TrialConfig(
            iosEnabled: try row.get("ios_enabled"), iosDurationDays: try row.get("ios_duration_days"),
            androidEnabled: try row.get("android_enabled", as: Bool?.self) ?? fallback.androidEnabled,
            androidDurationDays: try row.get("android_duration_days", as: Int?.self) ?? fallback.androidDurationDays)
    }
}
