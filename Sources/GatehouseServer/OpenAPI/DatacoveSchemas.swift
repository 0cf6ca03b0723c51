import GatehouseCommerceEngine
import GatehouseWire
import GatehouseRules

/// The Datacove dialect's shapes (`DatacoveWire`), by component name.
enum DatacoveSchemas {
    static let nullableString = Schema.string.orNull

    /// `DatacoveWire.ErrorEnvelope`, which managed APIs answer too.
    static let error = Schema.object([
        "statusCode": .integer, "timestamp": .dateTime, "path": .string,
        "error": .object([
            "statusCode": .integer, "error": .string, "message": .string, "code": .string, "canTransfer": .boolean, "balance": .integer,
        ], optional: ["statusCode", "error", "message", "code", "canTransfer", "balance"]),
    ], optional: ["statusCode", "timestamp", "path"])

    static let sessions: [String: Schema] = [
        "Error": error,
        "PhoneCodeRequest": .object(["phoneNumber": .string, "name": .string, "channel": .oneOf(["sms"])], optional: ["name", "channel"]),
        "PhoneCodeCheck": .object(["phoneNumber": .string, "otp": .string, "channel": .oneOf(["sms"])], optional: ["channel"]),
        "EmailCodeRequest": .object(["email": .string, "name": .string], optional: ["name"]),
        "EmailCodeCheck": .object(["email": .string, "otp": .string]),
        "RefreshRequest": .object(["refreshToken": .string]),
        "ProfileUpdate": .object(["name": .string, "timezone": .string], optional: ["name", "timezone"]),
        "Success": .object(["success": .boolean]),
        "TokenPair": .object(["accessToken": .string, "refreshToken": .string, "expiresIn": .integer]),
        "Profile": .object([
            "name": nullableString, "phone": nullableString, "email": nullableString, "country": nullableString, "timezone": nullableString,
            "status": .string, "wallet": .map(.integer),
        ]),
        "Session": .object([
            "id": .string, "deviceName": nullableString, "platform": nullableString, "appVersion": nullableString, "createdAt": .dateTime,
            "lastUsedAt": .dateTime, "current": .boolean,
        ], optional: ["lastUsedAt"]),
        "Sessions": .object(["data": .array(.ref("Session"))]),
    ]

    static let commerce: [String: Schema] = [
        "VerifyPurchase": .object([
            "platform": .oneOf(["apple", "google"]), "platformProductId": .string, "transactionId": .string, "signedTransaction": .string,
            "purchaseToken": .string, "transferToCurrentAccount": .boolean,
        ], optional: ["platform", "transactionId", "signedTransaction", "purchaseToken", "transferToCurrentAccount"])
            .described("apple (the default) needs transactionId; google needs purchaseToken and an app whose key is an ANDROID key"),
        "PurchaseResult": .object([
            "kind": .string, "creditsGranted": .integer, "entitlementStatus": .string, "currentPeriodEnd": nullableString, "transferred": .boolean,
        ], optional: ["creditsGranted", "entitlementStatus", "currentPeriodEnd", "transferred"]),
        "EntitlementSummary": .object([
            "trial": .object(["status": .string, "startedAt": .dateTime, "endsAt": .dateTime], optional: ["startedAt", "endsAt"]),
            "trialOffer": .object(["available": .boolean, "durationDays": .integer], optional: ["durationDays"]),
            "entitlement": .object(["status": .string, "productId": .string, "platform": .string, "currentPeriodEnd": nullableString],
                optional: ["productId", "platform", "currentPeriodEnd"]).described("productId and currentPeriodEnd only when a plan is held"),
            "plans": .array(.object([
                "productId": .string, "platformProductId": .string, "displayName": .string, "interval": .string, "gatedWorkflowId": nullableString,
            ])),
            "canExecuteGatedWorkflow": .boolean, "serverTime": .dateTime,
        ]),
        "AppleConfig": .object([
            "bundleId": nullableString, "issuerId": nullableString, "keyId": nullableString, "appAppleId": Schema.integer.orNull,
            "hasPrivateKey": .boolean, "production": .boolean, "extraTrustedRootPEM": nullableString, "xcodeCertificatePEM": nullableString,
            "claimUntaggedPurchases": .boolean,
        ]),
        "AppleConfigPatch": .object([
            "bundleId": nullableString, "issuerId": nullableString, "keyId": nullableString, "privateKey": nullableString,
            "appAppleId": Schema.integer.orNull, "production": .boolean, "extraTrustedRootPEM": nullableString, "xcodeCertificatePEM": nullableString,
            "claimUntaggedPurchases": .boolean,
        ], optional: Set(DatacoveWire.AppleConfigPatch.CodingKeys.allCases.map(\.stringValue))),
        "GooglePlayConfig": .object([
            "packageName": nullableString, "hasServiceAccountKey": .boolean, "clientEmail": nullableString, "keyFingerprint": nullableString,
            "pushAudience": nullableString, "pushServiceAccountEmail": nullableString, "production": .boolean,
        ]),
        "GooglePlayConfigPatch": .object([
            "packageName": .string, "serviceAccountKey": Schema.string.described("the service account's JSON key file, whole, as a string"),
            "pushAudience": nullableString, "pushServiceAccountEmail": nullableString, "production": .boolean,
        ], optional: Set(DatacoveWire.GooglePlayConfigPatch.CodingKeys.allCases.map(\.stringValue))),
        "CreditPackage": .object(["platformProductId": .string, "credits": .integer(minimum: 1), "displayName": nullableString]),
        "PricingConfig": .object(["provider": .oneOf(CommerceEngine.providers), "iapCreditPackages": .array(.ref("CreditPackage"))]),
        "PricingConfigUpdate": .object(
            ["provider": .oneOf(CommerceEngine.providers), "iapCreditPackages": .array(.ref("CreditPackage"))], optional: ["provider"]),
        "StorePlanRequest": .object([
            "displayName": .string, "interval": .oneOf(Plan.Interval.allCases.map(\.rawValue)), "platformProductIds": .map(.string), "gatedWorkflowId": nullableString,
        ], optional: ["gatedWorkflowId"]),
        "StorePlan": .object([
            "productId": .string, "displayName": .string, "interval": .string, "platformProductIds": .map(.string), "gatedWorkflowId": nullableString,
        ]),
        "StorePlans": .object(["data": .array(.ref("StorePlan"))]),
        "TrialConfig": .object([
            "ios": .object(["enabled": .boolean, "durationDays": .integer(minimum: 1)]),
            "android": .object(["enabled": .boolean, "durationDays": .integer(minimum: 1)]),
        ], optional: ["android"]).described("ios is the trial of every app whose key is not an ANDROID key; a patch may send either or both"),
    ]

    static let workflows: [String: Schema] = [
        "Workflow": .object([
            "id": .string, "name": .string, "description": .string, "category": .string, "featured": .boolean, "credits": .integer,
            "responseType": .oneOf(["sync", "event"]), "gated": .boolean, "inputs": .array(.ref("WorkflowInput")),
        ], optional: ["inputs"]),
        "PageMeta": .object(["page": .integer, "pageSize": .integer, "total": .integer, "totalPages": .integer]),
        "WorkflowPage": .object(["data": .array(.ref("Workflow")), "meta": .ref("PageMeta")]),
        "ExecuteRequest": .object(["id": .string, "input": .map(.any)]),
        "ReportError": .object(["code": .string, "message": .string]),
        "ExecuteResponse": .object([
            "eventId": .string, "status": .string, "result": .any, "error": .ref("ReportError"), "creditsCharged": .integer,
        ], optional: ["eventId", "result", "error"]),
        "Report": .object([
            "eventId": .string, "workflowId": .string, "status": .string, "result": .any, "error": Schema.ref("ReportError").orNull,
            "creditsCharged": .integer, "creditsRefunded": .integer, "createdAt": .dateTime, "startedAt": Schema.dateTime.orNull,
            "finishedAt": Schema.dateTime.orNull,
        ]),
        "ReportPage": .object(["data": .array(.ref("Report")), "meta": .ref("PageMeta")]),
        "CallbackAnswer": .object(["recorded": .boolean]),
        "WorkerAnswer": .object(["runId": .string, "status": .oneOf(["succeeded", "failed"]), "result": .any, "error": .ref("ReportError")],
            optional: ["result", "error"]),
    ]
}
