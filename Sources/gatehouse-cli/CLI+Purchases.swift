import Foundation
import GatehouseClientCore
import GatehousePurchases
import GatehouseWire

/// `gatehouse-cli store …` (the tenant's App Store and Google Play setup, admin token) and
/// `gatehouse-cli purchases …` (the signed-in account of `auth verify`).
extension CLI {
    static let storeUsage = """
        usage: gatehouse-cli store show
               gatehouse-cli store apple-config [--bundle-id ID] [--app-apple-id N] [--issuer-id ID] [--key-id ID]
                                                [--private-key-file P8] [--extra-root-file PEM] [--xcode-certificate-file PEM]
                                                [--production true|false]
                                                [--claim-untagged true|false]
               gatehouse-cli store google-play-config [--package-name NAME] [--service-account-key-file JSON]
                                                      [--push-audience AUDIENCE|null] [--push-service-account EMAIL|null]
                                                      [--production true|false]
               gatehouse-cli store credits [--provider apple|google] PRODUCT_ID CREDITS [PRODUCT_ID CREDITS …]
               gatehouse-cli store plan NAME monthly|annual|one_time_year PRODUCT_ID [GATED_WORKFLOW_ID]
                                        [--google SUBSCRIPTION_ID[:BASE_PLAN_ID]]
               gatehouse-cli store trial DAYS|off [--platform ios|android]
        option: --tenant ID (default: the development tenant)
        """
    static let purchasesUsage = """
        usage: gatehouse-cli purchases entitlement | trial
               gatehouse-cli purchases verify PRODUCT_ID TRANSACTION_ID [--signed-file JWS_FILE] [--transfer true]
               gatehouse-cli purchases verify --platform google PRODUCT_ID PURCHASE_TOKEN [--transfer true]  (signed in with APP_PLATFORM=ANDROID)
        """

    static func store(_ words: [String], admin: APIClient, credentials: [String: Any]?) async throws {
        let options = Options(words, known: [
            "tenant", "bundle-id", "issuer-id", "key-id", "app-apple-id", "private-key-file", "extra-root-file", "xcode-certificate-file", "production",
            "claim-untagged", "package-name", "service-account-key-file", "push-audience", "push-service-account", "provider", "google", "platform",
        ], takes: ["show": 1, "apple-config": 1, "google-play-config": 1, "plan": 5, "trial": 2][words.first ?? ""])
        guard let tenant = options.value("tenant") ?? credentials?["tenantId"] as? String else { fail(storeUsage) }
        let endpoints = DatacoveWire.Endpoints.Store.self
        /// Sends and prints the answer pretty, under `label` when given (as other commands print JSON).
        func send<Body, Reply>(_ endpoint: Endpoint<Body, Reply>, _ body: [String: Any]? = nil, label: String? = nil, query: String = "") async throws {
            let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
            if let label { print(label + ":") }
            let answer: Data
            do {
                answer = try await admin.sendRaw(endpoint.method.rawValue, endpoint.path(["tenantId": tenant]) + query, body: data)
            } catch GatehouseClientError.api(404, _, _, _) where label != nil {
                print("  (not configured yet)")
                return
            }
            if let object = try? JSONSerialization.jsonObject(with: answer),
                let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            {
                print(String(decoding: pretty, as: UTF8.self))
            } else {
                print(String(decoding: answer, as: UTF8.self))
            }
        }
        func count(_ text: String, _ what: String) -> Int {
            guard let number = Int(text), number >= 0 else { fail("\(what) must be a whole number, not \(text)") }
            return number
        }
        let words = options.positional
        switch words.first {
        case "show":
            try await send(endpoints.appleConfig, label: "apple-config")
            try await send(endpoints.googlePlayConfig, label: "google-play-config")
            try await send(endpoints.pricingConfig, label: "pricing-config (credit packages)")
            try await send(endpoints.pricingConfig, label: "pricing-config?provider=google (Google Play credit packages)", query: "?provider=google")
            try await send(endpoints.plans, label: "service-entitlement-products (plans)")
            try await send(endpoints.trialConfig, label: "trial-config")
        case "apple-config":
            var body: [String: Any] = [:]
            for (flag, field) in [("bundle-id", "bundleId"), ("issuer-id", "issuerId"), ("key-id", "keyId")] {
                if let value = options.value(flag) { body[field] = value }
            }
            if let id = options.value("app-apple-id") { body["appAppleId"] = Int64(id) ?? -1 }
            if let file = options.value("private-key-file") { body["privateKey"] = readFile(file, flag: "private-key-file") }
            if let file = options.value("extra-root-file") { body["extraTrustedRootPEM"] = readFile(file, flag: "extra-root-file") }
            if let file = options.value("xcode-certificate-file") { body["xcodeCertificatePEM"] = readFile(file, flag: "xcode-certificate-file") }
            if let flag = options.value("production") { body["production"] = flag == "true" }
            if let flag = options.value("claim-untagged") { body["claimUntaggedPurchases"] = flag == "true" }
            try await send(endpoints.updateAppleConfig, body)
        case "google-play-config":
            var body: [String: Any] = [:]
            if let name = options.value("package-name") { body["packageName"] = name }
            if let file = options.value("service-account-key-file") { body["serviceAccountKey"] = readFile(file, flag: "service-account-key-file") }
            for (flag, field) in [("push-audience", "pushAudience"), ("push-service-account", "pushServiceAccountEmail")] {
                if let value = options.value(flag) { body[field] = value == "null" ? NSNull() : value }
            }
            if let flag = options.value("production") { body["production"] = flag == "true" }
            try await send(endpoints.updateGooglePlayConfig, body)
        case "credits":
            let pairs = Array(words.dropFirst())
            guard !pairs.isEmpty, pairs.count.isMultiple(of: 2) else { fail(storeUsage) }
            let packages = stride(from: 0, to: pairs.count, by: 2).map { ["platformProductId": pairs[$0], "credits": count(pairs[$0 + 1], "the credits of \(pairs[$0])")] }
            try await send(endpoints.putPricingConfig, ["provider": options.value("provider") ?? "apple", "iapCreditPackages": packages])
        case "plan":
            guard words.count >= 4 else { fail(storeUsage) }
            var ids = ["apple": words[3]]
            if let google = options.value("google") { ids["google"] = google }
            var body: [String: Any] = ["displayName": words[1], "interval": words[2], "platformProductIds": ids]
            if words.count > 4 { body["gatedWorkflowId"] = words[4] }
            try await send(endpoints.createPlan, body)
        case "trial":
            guard words.count == 2 else { fail(storeUsage) }
            let trial: [String: Any] = words[1] == "off" ? ["enabled": false] : ["enabled": true, "durationDays": count(words[1], "the trial's days")]
            let platform = options.value("platform") ?? "ios"
            guard ["ios", "android"].contains(platform) else { fail("--platform must be ios or android") }
            try await send(endpoints.updateTrialConfig, [platform: trial])
        default:
            fail(storeUsage)
        }
    }

    static func purchases(_ words: [String], url: URL, credentials: [String: Any]?, logger: (@Sendable (String) -> Void)?) async throws {
        // The wiring an app writes: GatehousePurchases reports with GatehouseAuth's signed-in session.
        let auth = authClient(url: url, credentials: credentials, logger: logger).0
        let backend = DatacovePurchaseBackend { try await auth.session.authorizedResponse($0) }
        let options = Options(Array(words.dropFirst()), known: ["platform", "transfer", "signed-file"], takes: ["entitlement": 0, "trial": 0, "verify": 2][words.first ?? ""])
        switch words.first {
        case "entitlement":
            print(describe(try await backend.entitlement()))
        case "trial":
            print(describe(try await backend.startTrial()))
        case "verify":
            guard options.positional.count == 2 else { fail(purchasesUsage) }
            let transfer = options.value("transfer") == "true"
            let verdict: ReportVerdict
            switch options.value("platform") ?? "apple" {
            case "google":
                verdict = await backend.verifyGooglePlayPurchase(
                    productId: options.positional[0], purchaseToken: options.positional[1], transferToCurrentAccount: transfer)
            case "apple":
                let jws = options.value("signed-file").map { readFile($0, flag: "signed-file").trimmingCharacters(in: .whitespacesAndNewlines) }
                let transaction = StoreTransaction(
                    id: options.positional[1], originalID: options.positional[1], productID: options.positional[0], productType: .consumable,
                    jwsRepresentation: jws ?? "", appAccountToken: nil)
                verdict = await backend.report(transaction, transferToCurrentAccount: transfer)
            default:
                fail("--platform must be apple or google")
            }
            switch verdict {
            case .accepted(let receipt):
                print("accepted: \(receipt.kind.rawValue)\(receipt.creditsGranted.map { ", \($0) credits added" } ?? "")"
                    + (receipt.entitlementStatus.map { ", \($0)" } ?? ""))
            case .transferOffered(let message): refuse("not linked: \(message) — run again with --transfer true to move it to this account")
            case .refused(let status, let code, let message): throw api(status, code?.rawValue, message, retryAfter: nil)
            case .retryLater(let reason, let retryAfter):
                refuse("not confirmed (\(reason)) — retry after \(retryAfter.map { "\(Int($0.rounded(.up))) s" } ?? "a while")", exit: .unavailable)
            }
        default:
            fail(purchasesUsage)
        }
    }

    static func describe(_ snapshot: EntitlementSnapshot) -> String {
        """
        entitlement: \(snapshot.entitlementStatus)
        trial: \(snapshot.trialStatus ?? "-")  offer available: \(snapshot.trialOfferAvailable)
        can execute gated workflows: \(snapshot.canExecuteGatedWorkflow)\(snapshot.validUntil.map { " (until \($0))" } ?? "")
        plans: \(snapshot.plans.map { "\($0.displayName) (\($0.interval), \($0.platformProductId))" }.joined(separator: ", "))
        server time: \(snapshot.serverTime)
        """
    }
}
