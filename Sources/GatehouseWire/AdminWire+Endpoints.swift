import Foundation

extension AdminWire {
    /// The operator's API under `/admin/v1`, with the admin token. Each declares its body and
    /// answer as admin wire types (`NoBody` for none): the server decodes and encodes them, the
    /// CLI sends and reads them, and the admin document's examples are of them.
    public enum Endpoints {
        public static let prefix = "/admin/v1"

        static func endpoint<Body, Reply>(_ method: RequestMethod, _ path: String, id: String, _ summary: String) -> Endpoint<Body, Reply> {
            Endpoint(method, prefix + path, credential: .admin, envelope: .admin, id: id, summary: summary)
        }

        public static let createTenant: Endpoint<CreateTenant, Tenant> = endpoint(.POST, "/tenants", id: "createTenant", "Create a tenant")
        public static let listTenants: Endpoint<NoBody, List<Tenant>> = endpoint(.GET, "/tenants", id: "listTenants", "Every tenant")
        public static let getTenant: Endpoint<NoBody, Tenant> = endpoint(.GET, "/tenants/:tenantId", id: "getTenant", "One tenant")
        public static let disableTenant: Endpoint<NoBody, NoBody> = endpoint(.POST, "/tenants/:tenantId/disable", id: "disableTenant", "Refuse the tenant's keys and tokens until enabled")
        public static let enableTenant: Endpoint<NoBody, Tenant> = endpoint(.POST, "/tenants/:tenantId/enable", id: "enableTenant", "Enable a disabled tenant")
        public static let createApplication: Endpoint<CreateApplication, Application> = endpoint(.POST, "/tenants/:tenantId/applications", id: "createApplication", "Create an application")
        public static let listApplications: Endpoint<NoBody, List<Application>> = endpoint(.GET, "/tenants/:tenantId/applications", id: "listApplications", "The tenant's applications")
        public static let createKey: Endpoint<CreateKey, IssuedKey> = endpoint(.POST, "/tenants/:tenantId/keys", id: "createKey", "Issue an API key (the secret is shown once)")
        public static let listKeys: Endpoint<NoBody, List<Key>> = endpoint(.GET, "/tenants/:tenantId/keys", id: "listKeys", "The tenant's keys, without secrets")
        public static let revokeKey: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/keys/:keyId", id: "revokeKey", "Revoke a key")
        public static let rotateTokenKey: Endpoint<NoBody, NoBody> = endpoint(.POST, "/tenants/:tenantId/token-keys/rotate", id: "rotateTokenKey", "Start signing sessions with a new key")
        public static let putTemplate: Endpoint<Template, NoBody> = endpoint(.PUT, "/tenants/:tenantId/otp-applications/:appId/templates/:group/:channel/:language", id: "putTemplate", "Set a message template ({{CODE}} stands for the code)")
        public static let deleteTemplate: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/otp-applications/:appId/templates/:group/:channel/:language", id: "deleteTemplate", "Go back to the default template")
        public static let readOutbox: Endpoint<NoBody, List<OutboxMessage>> = endpoint(.GET, "/outbox", id: "readOutbox", "Development outbox: what was \"sent\" to a number or email, newest first")
        public static let createOTPApplication: Endpoint<OTPApplicationSettings, CreatedOTPApplication> = endpoint(.POST, "/tenants/:tenantId/otp-applications", id: "createOTPApplication", "Create an OTP application (the secret is shown once)")
        public static let listOTPApplications: Endpoint<NoBody, List<OTPApplication>> = endpoint(.GET, "/tenants/:tenantId/otp-applications", id: "listOTPApplications", "The tenant's OTP applications")
        public static let getOTPApplication: Endpoint<NoBody, OTPApplication> = endpoint(.GET, "/tenants/:tenantId/otp-applications/:appId", id: "getOTPApplication", "One OTP application, with its last callback failure")
        public static let updateOTPApplication: Endpoint<OTPApplicationSettings, OTPApplication> = endpoint(.PATCH, "/tenants/:tenantId/otp-applications/:appId", id: "updateOTPApplication", "Change an OTP application's settings")
        public static let listTestNumbers: Endpoint<NoBody, List<TestNumber>> = endpoint(.GET, "/tenants/:tenantId/test-numbers", id: "listTestNumbers", "Test numbers and emails with fixed codes")
        public static let addTestNumber: Endpoint<TestNumber, TestNumber> = endpoint(.POST, "/tenants/:tenantId/test-numbers", id: "addTestNumber", "Add a test number (reserved ranges unless confirmed)")
        public static let removeTestNumber: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/test-numbers/:destination", id: "removeTestNumber", "Remove a test number")
        public static let getVerificationBalance: Endpoint<NoBody, Balance> = endpoint(.GET, "/tenants/:tenantId/verification-balance", id: "getVerificationBalance", "The verification balance")
        public static let adjustVerificationBalance: Endpoint<BalanceChange, Balance> = endpoint(.POST, "/tenants/:tenantId/verification-balance", id: "adjustVerificationBalance", "Add to the balance (negative to take)")
        public static let listWorkflowDefinitions: Endpoint<NoBody, List<WorkflowDefinition>> = endpoint(.GET, "/tenants/:tenantId/workflows", id: "listWorkflowDefinitions", "The tenant's workflow definitions")
        public static let getWorkflowDefinition: Endpoint<NoBody, WorkflowDefinition> = endpoint(.GET, "/tenants/:tenantId/workflows/:workflowId", id: "getWorkflowDefinition", "One definition")
        public static let putWorkflowDefinition: Endpoint<WorkflowDefinition, WorkflowDefinition> = endpoint(.PUT, "/tenants/:tenantId/workflows/:workflowId", id: "putWorkflowDefinition", "Create or replace a definition")
        public static let deleteWorkflowDefinition: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/workflows/:workflowId", id: "deleteWorkflowDefinition", "Remove a definition")
        public static let getWorkflowSettings: Endpoint<NoBody, WorkflowSettings> = endpoint(.GET, "/tenants/:tenantId/workflow-settings", id: "getWorkflowSettings", "Worker and OpenAI settings (secrets never shown)")
        public static let updateWorkflowSettings: Endpoint<WorkflowSettingsPatch, WorkflowSettings> = endpoint(.PATCH, "/tenants/:tenantId/workflow-settings", id: "updateWorkflowSettings", "Change worker and OpenAI settings")
        public static let grantCredits: Endpoint<CreditGrant, WalletBalance> = endpoint(.POST, "/tenants/:tenantId/accounts/:accountId/credits", id: "grantCredits", "Add credits to an account's wallet")
        public static let listManagedAPIs: Endpoint<NoBody, List<ManagedAPIDefinition>> = endpoint(.GET, "/tenants/:tenantId/managed-apis", id: "listManagedAPIs", "The tenant's managed API definitions (secrets never shown)")
        public static let getManagedAPI: Endpoint<NoBody, ManagedAPIDefinition> = endpoint(.GET, "/tenants/:tenantId/managed-apis/:name", id: "getManagedAPI", "One definition")
        public static let putManagedAPI: Endpoint<ManagedAPIDefinition, ManagedAPIDefinition> = endpoint(.PUT, "/tenants/:tenantId/managed-apis/:name", id: "putManagedAPI", "Create or replace a definition (secrets sealed)")
        public static let deleteManagedAPI: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/managed-apis/:name", id: "deleteManagedAPI", "Remove a definition")
        public static let getPossessionSettings: Endpoint<NoBody, PossessionSettings> = endpoint(.GET, "/tenants/:tenantId/possession", id: "getPossessionSettings", "The tenant's possession settings")
        public static let putPossessionSettings: Endpoint<PossessionSettings, PossessionSettings> = endpoint(.PUT, "/tenants/:tenantId/possession", id: "putPossessionSettings", "Set the environment, SSN policy and carrier check")
        public static let listPossessionClients: Endpoint<NoBody, List<PossessionClient>> = endpoint(.GET, "/tenants/:tenantId/possession/clients", id: "listPossessionClients", "Clients of the v3 API")
        public static let createPossessionClient: Endpoint<CreatePossessionClient, PossessionClient> = endpoint(.POST, "/tenants/:tenantId/possession/clients", id: "createPossessionClient", "Issue a client (the secret is shown once)")
        public static let revokePossessionClient: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/possession/clients/:clientId", id: "revokePossessionClient", "Revoke a client")
        public static let importIdentities: Endpoint<IdentityImport, IdentityImported> = endpoint(.POST, "/tenants/:tenantId/possession/identities", id: "importIdentities", "Add or replace identities of the directory")
        public static let removeIdentity: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/possession/identities/:phoneNumber", id: "removeIdentity", "Remove an identity")
        public static let liftPrefixBlock: Endpoint<NoBody, NoBody> = endpoint(.DELETE, "/tenants/:tenantId/prefix-blocks/:prefix", id: "liftPrefixBlock", "Lift a prefix's active block")
        public static let listPrefixBlocks: Endpoint<NoBody, List<PrefixBlock>> = endpoint(.GET, "/tenants/:tenantId/prefix-blocks", id: "listPrefixBlocks", "Blocked prefixes, the guard's and the operator's")
        public static let pinPrefixBlock: Endpoint<PrefixBlockRequest, PrefixBlock> = endpoint(.POST, "/tenants/:tenantId/prefix-blocks", id: "pinPrefixBlock", "Block a prefix for one application or the whole tenant")
        public static let getConversion: Endpoint<NoBody, Conversion> = endpoint(.GET, "/tenants/:tenantId/otp-applications/:appId/conversion", id: "getConversion", "The last hour's codes sent and verified per prefix and country, and the application's baseline")

        public static var all: [EndpointDescription] {
            [
                createTenant.described, listTenants.described, getTenant.described, disableTenant.described,
                enableTenant.described, createApplication.described, listApplications.described, createKey.described,
                listKeys.described, revokeKey.described, rotateTokenKey.described, putTemplate.described,
                deleteTemplate.described, readOutbox.described, createOTPApplication.described, listOTPApplications.described,
                getOTPApplication.described, updateOTPApplication.described, listTestNumbers.described, addTestNumber.described,
                removeTestNumber.described, getVerificationBalance.described, adjustVerificationBalance.described, listWorkflowDefinitions.described,
                getWorkflowDefinition.described, putWorkflowDefinition.described, deleteWorkflowDefinition.described, getWorkflowSettings.described,
                updateWorkflowSettings.described, grantCredits.described, listManagedAPIs.described, getManagedAPI.described,
                putManagedAPI.described, deleteManagedAPI.described, getPossessionSettings.described, putPossessionSettings.described,
                listPossessionClients.described, createPossessionClient.described, revokePossessionClient.described, importIdentities.described,
                removeIdentity.described, liftPrefixBlock.described, listPrefixBlocks.described, pinPrefixBlock.described,
                getConversion.described,
            ]
        }
    }
}
