@testable import GatehouseServer
import GatehouseWire
import Testing
import GatehouseRules

/// A request schema names exactly the keys its wire type reads: the `CodingKeys` the server's
/// strict decoding accepts. A key added to a wire type and not to its schema (or the other way)
/// fails here, before a fuzzer would never send it.
@Suite struct RequestSchemaKeyTests {
    static func keys<K: CodingKey & CaseIterable>(_ type: K.Type) -> Set<String> { Set(K.allCases.map(\.stringValue)) }

    static let expected: [(document: String, schema: String, keys: Set<String>)] = [
        ("admin", "ManagedAPIDefinition", keys(AdminWire.ManagedAPIDefinition.CodingKeys.self)),
        ("admin", "PossessionSettings", keys(AdminWire.PossessionSettings.CodingKeys.self)),
        ("admin", "WorkflowDefinition", keys(AdminWire.WorkflowDefinition.CodingKeys.self)),
        ("admin", "WorkflowSettingsPatch", keys(AdminWire.WorkflowSettingsPatch.CodingKeys.self)),
        ("admin", "WorkflowInput", keys(DatacoveWire.WorkflowInput.CodingKeys.self)),
        ("admin", "Address", keys(ProveWire.Address.CodingKeys.self)),
        ("admin", "OTPApplicationSettings", OTPApplicationSettingsBody.fields),
        // The fields PrefixBlockRoutes hands StrictJSON.
        ("admin", "PrefixBlockRequest", ["prefix", "applicationId"]),
        ("datacove", "VerifyPurchase", keys(DatacoveWire.VerifyPurchase.CodingKeys.self)),
        ("datacove", "PhoneCodeRequest", keys(DatacoveWire.PhoneCodeRequest.CodingKeys.self)),
        ("datacove", "PhoneCodeCheck", keys(DatacoveWire.PhoneCodeCheck.CodingKeys.self)),
        ("datacove", "EmailCodeRequest", keys(DatacoveWire.EmailCodeRequest.CodingKeys.self)),
        ("datacove", "EmailCodeCheck", keys(DatacoveWire.EmailCodeCheck.CodingKeys.self)),
        ("datacove", "ProfileUpdate", keys(DatacoveWire.ProfileUpdate.CodingKeys.self)),
        ("datacove", "RefreshRequest", keys(DatacoveWire.RefreshRequest.CodingKeys.self)),
        ("datacove", "PricingConfigUpdate", keys(DatacoveWire.PricingConfigUpdate.CodingKeys.self)),
        ("datacove", "CreditPackage", keys(DatacoveWire.CreditPackage.CodingKeys.self)),
        ("datacove", "StorePlan", keys(DatacoveWire.StorePlan.CodingKeys.self)),
        ("datacove", "StorePlanRequest", keys(DatacoveWire.PlanRequest.CodingKeys.self)),
        ("datacove", "TrialConfig", keys(DatacoveWire.TrialConfigPatch.CodingKeys.self)),
        ("datacove", "AppleConfigPatch", keys(DatacoveWire.AppleConfigPatch.CodingKeys.self)),
        ("datacove", "ExecuteRequest", keys(DatacoveWire.ExecuteRequest.CodingKeys.self)),
        ("datacove", "WorkflowInput", keys(DatacoveWire.WorkflowInput.CodingKeys.self)),
        ("possession", "StartRequest", keys(ProveWire.StartRequest.CodingKeys.self)),
        ("possession", "ValidateRequest", keys(ProveWire.ValidateRequest.CodingKeys.self)),
        ("possession", "ChallengeRequest", keys(ProveWire.ChallengeRequest.CodingKeys.self)),
        ("possession", "CompleteRequest", keys(ProveWire.CompleteRequest.CodingKeys.self)),
        ("possession", "Individual", keys(ProveWire.Individual.CodingKeys.self)),
        ("possession", "Address", keys(ProveWire.Address.CodingKeys.self)),
        ("subscriptionflow", "PurchaseReport", keys(SubscriptionFlowWire.PurchaseReport.CodingKeys.self)),
        ("subscriptionflow", "AccountTokenRequest", keys(SubscriptionFlowWire.AccountTokenRequest.CodingKeys.self)),
        ("subscriptionflow", "CustomerPurchase", keys(SubscriptionFlowWire.CustomerPurchase.CodingKeys.self)),
    ]

    @Test func requestSchemasNameTheKeysTheirWireTypesRead() throws {
        let documents = Dictionary(uniqueKeysWithValues: OpenAPIDocuments.all.map { ($0.name, $0) })
        for (name, schema, keys) in Self.expected {
            let properties = documents[name]?.schemas[schema]?.json["properties"]?.object
            #expect(properties.map { Set($0.keys) } == keys, "\(name) \(schema)")
        }
    }
}
