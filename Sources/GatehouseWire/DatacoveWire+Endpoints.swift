import Foundation

extension DatacoveWire {
    /// The Datacove app API under `/api`: sign-in with the platform key, the session's own
    /// calls, the profile, and purchases with the entitlement.
    public enum Endpoints {
        /// Where an SDK's base URL ends (the seed's apps configure `https://host/api`).
        public static let mount = "/api"

        static func endpoint<Body, Reply>(
            _ method: RequestMethod, _ path: String, _ credential: Credential, id: String, _ summary: String
        ) -> Endpoint<Body, Reply> {
            Endpoint(method, mount + path, credential: credential, envelope: .datacove, id: id, summary: summary)
        }

        public static let requestPhoneCode: Endpoint<PhoneCodeRequest, Success> =
            endpoint(.POST, "/auth/v1/mobile/request-otp", .apiKey, id: "requestPhoneCode", "Send a sign-in code by SMS")
        public static let verifyPhoneCode: Endpoint<PhoneCodeCheck, TokenPair> =
            endpoint(.POST, "/auth/v1/mobile/verify-otp", .apiKey, id: "verifyPhoneCode", "Sign in with the code")
        public static let requestEmailCode: Endpoint<EmailCodeRequest, Success> =
            endpoint(.POST, "/auth/v1/email/request-otp", .apiKey, id: "requestEmailCode", "Send a sign-in code by email")
        public static let verifyEmailCode: Endpoint<EmailCodeCheck, TokenPair> =
            endpoint(.POST, "/auth/v1/email/verify-otp", .apiKey, id: "verifyEmailCode", "Sign in with the emailed code")
        public static let activate: Endpoint<NoBody, TokenPair> =
            endpoint(.POST, "/auth/v1/activate", .session, id: "activate", "Activate a new account and rotate its tokens")
        public static let refresh: Endpoint<RefreshRequest, TokenPair> =
            endpoint(.POST, "/auth/v1/refresh", .none, id: "refresh", "Rotate the tokens (a replay inside 30 s answers the same pair)")
        public static let logout: Endpoint<NoBody, NoBody> = endpoint(.POST, "/auth/v1/logout", .session, id: "logout", "Sign this session out")
        public static let sessions: Endpoint<NoBody, Sessions> =
            endpoint(.GET, "/auth/v1/sessions", .session, id: "listSessions", "The account's signed-in devices")
        public static let signOutSession: Endpoint<NoBody, NoBody> =
            endpoint(.DELETE, "/auth/v1/sessions/:id", .session, id: "signOutSession", "Sign one device out")
        public static let profile: Endpoint<NoBody, Profile> =
            endpoint(.GET, "/users/v1/profile", .session, id: "getProfile", "The profile, with the wallet")
        public static let updateProfile: Endpoint<ProfileUpdate, Profile> =
            endpoint(.PATCH, "/users/v1/profile", .session, id: "updateProfile", "Change the name or time zone")
        public static let deleteAccount: Endpoint<NoBody, NoBody> =
            endpoint(.DELETE, "/users/v1/account", .session, id: "deleteAccount", "Delete the account and everything of it")
        public static let verifyPurchase: Endpoint<VerifyPurchase, PurchaseResult> = endpoint(
            .POST, "/purchases/v1/verify-purchase", .session, id: "verifyPurchase", "Grant a credit package or a plan for an App Store transaction")
        public static let entitlement: Endpoint<NoBody, EntitlementSummary> =
            endpoint(.GET, "/purchases/v1/entitlement", .session, id: "getEntitlement", "Trial, plan and what the account may run")
        public static let startTrial: Endpoint<NoBody, EntitlementSummary> =
            endpoint(.POST, "/purchases/v1/trial/start", .session, id: "startTrial", "Start the server trial (once per account)")

        public static let passkeyCreationOptions: Endpoint<NoBody, PasskeyCreationOptions> = endpoint(
            .POST, "/auth/v1/passkeys/registration-options", .session, id: "passkeyCreationOptions",
            "Options to make a passkey for this account (a challenge kept five minutes, for one answer)")
        public static let registerPasskey: Endpoint<PasskeyRegistration, PasskeyInfo> =
            endpoint(.POST, "/auth/v1/passkeys", .session, id: "registerPasskey", "Register the passkey the authenticator made")
        public static let passkeys: Endpoint<NoBody, PasskeyList> = endpoint(.GET, "/auth/v1/passkeys", .session, id: "listPasskeys", "The account's passkeys")
        public static let renamePasskey: Endpoint<PasskeyRename, PasskeyInfo> =
            endpoint(.PATCH, "/auth/v1/passkeys/:id", .session, id: "renamePasskey", "Rename a passkey")
        public static let deletePasskey: Endpoint<NoBody, NoBody> =
            endpoint(.DELETE, "/auth/v1/passkeys/:id", .session, id: "deletePasskey", "Delete a passkey (a sign-in of the last ten minutes needed)")
        public static let passkeySignInOptions: Endpoint<PasskeySignInOptionsRequest, PasskeyRequestOptions> = endpoint(
            .POST, "/auth/v1/passkeys/sign-in-options", .apiKey, id: "passkeySignInOptions",
            "Options to sign in with a passkey: discoverable, or for the account of a phone or email")
        public static let passkeySignIn: Endpoint<PasskeySignIn, TokenPair> =
            endpoint(.POST, "/auth/v1/passkeys/sign-in", .apiKey, id: "passkeySignIn", "Sign in with a passkey: the same pair as a code")

        /// The sign-in, session, profile and purchase endpoints (the prefixes `/api/auth`, `/api/users`, `/api/purchases`).
        public static var all: [EndpointDescription] {
            [
                requestPhoneCode.described, verifyPhoneCode.described, requestEmailCode.described, verifyEmailCode.described, activate.described,
                refresh.described, logout.described, sessions.described, signOutSession.described, profile.described, updateProfile.described,
                deleteAccount.described, verifyPurchase.described, entitlement.described, startTrial.described, passkeyCreationOptions.described,
                registerPasskey.described, passkeys.described, renamePasskey.described, deletePasskey.described, passkeySignInOptions.described,
                passkeySignIn.described,
            ]
        }
    }
}
