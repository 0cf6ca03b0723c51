import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseCore
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseWorkflowsEngine

/// How the engines' refusals read in the Datacove dialect: status, `error.code`, message.
extension DatacoveError {
    /// `nil` for an error no engine or layer meant to show a client.
    init?(mapping error: any Error) {
        switch error {
        case let error as DatacoveError: self = error
        case let error as AccountsError: self.init(error)
        case let error as PasskeyError: self.init(error)
        case let error as SessionError: self.init(status: 401, code: Self.code(error.code), message: Self.message(error.code))
        case let error as PurchaseError: self.init(error)
        case let error as CommerceError: self.init(error)
        case let error as CoreError: self.init(error)
        case let error as WorkflowError: self.init(error)
        case let error as ManagedAPIError: self.init(error)
        case let rejected as NotificationRejected:
            self.init(status: 400, code: "NOTIFICATION_INVALID", message: "The notification could not be verified (\(rejected.reason)).")
        case let error as HTTPError:
            self.init(status: error.status, code: Self.code(of: error), message: error.message)
            headers = error.headers
        default: return nil
        }
    }

    private init(_ error: AccountsError) {
        let (status, code, message): (Int, String, String)
        switch error.code {
        case .codeInvalid: (status, code, message) = (400, "OTP_INVALID", "The code is not valid.")
        case .codeExpired: (status, code, message) = (400, "OTP_EXPIRED", "The code has expired. Ask for a new one.")
        case .codeAttemptsUsed: (status, code, message) = (429, "OTP_TOO_MANY_ATTEMPTS", "Too many wrong codes for this code. Ask for a new one.")
        case .tooManyWrongCodes: (status, code, message) = (429, "OTP_TOO_MANY_ATTEMPTS", "Too many wrong codes. Try again later.")
        case .codeSentRecently: (status, code, message) = (429, "RATE_LIMITED", "A code was sent moments ago. Wait before asking for another.")
        case .sendingLimited: (status, code, message) = (429, "RATE_LIMITED", "Codes to numbers like this one are held back for now. Try again later.")
        case .phoneNumberInvalid:
            (status, code, message) = (400, "VALIDATION_FAILED", "phoneNumber must be an international number such as +14165550199")
        case .emailInvalid: (status, code, message) = (400, "VALIDATION_FAILED", "email must be an email address")
        case .nameInvalid: (status, code, message) = (400, "VALIDATION_FAILED", "name must be 1 to 100 characters")
        case .timezoneInvalid: (status, code, message) = (400, "VALIDATION_FAILED", "timezone must be an IANA time zone such as America/Toronto")
        }
        self.init(status: status, code: code, message: message, retryAfter: error.retryAfter)
    }

    private init(_ error: PasskeyError) {
        let (status, code, message): (Int, String, String)
        switch error {
        case .notEnabled: (status, code, message) = (403, "PASSKEYS_NOT_ENABLED", "Passkeys are not enabled for this app.")
        case .configInvalid(let why): (status, code, message) = (400, "VALIDATION_FAILED", why)
        case .challengeInvalid:
            (status, code, message) = (400, "PASSKEY_CHALLENGE_INVALID", "The challenge is unknown, used, expired or for another ceremony. Ask for new options.")
        case .ceremony(let rule): (status, code, message) = (400, "PASSKEY_INVALID", "The passkey's answer was refused (\(rule.code)).")
        case .credentialUnknown: (status, code, message) = (404, "PASSKEY_NOT_FOUND", "No such passkey.")
        case .credentialAlreadyRegistered: (status, code, message) = (409, "PASSKEY_ALREADY_REGISTERED", "This passkey is registered already.")
        case .userHandleMismatch: (status, code, message) = (400, "PASSKEY_INVALID", "The passkey's answer was refused (user_handle_mismatch).")
        case .counterRegressed: (status, code, message) = (400, "PASSKEY_INVALID", "The passkey's answer was refused (counter_regressed).")
        case .backupEligibilityChanged: (status, code, message) = (400, "PASSKEY_INVALID", "The passkey's answer was refused (backup_eligibility_changed).")
        case .recentSignInRequired: (status, code, message) = (403, "RECENT_SIGN_IN_REQUIRED", "Sign in again to delete a passkey.")
        case .nameInvalid: (status, code, message) = (400, "VALIDATION_FAILED", "name must be 1 to 64 characters without control characters")
        case .tooManyPasskeys: (status, code, message) = (409, "TOO_MANY_PASSKEYS", "This account holds as many passkeys as it may.")
        }
        self.init(status: status, code: code, message: message)
    }

    private init(_ error: PurchaseError) {
        let (status, code): (Int, String)
        switch error.code {
        case .storeNotConfigured: (status, code) = (400, "STORE_NOT_CONFIGURED")
        case .purchaseInvalid: (status, code) = (400, "PURCHASE_INVALID")
        case .productUnknown: (status, code) = (400, "PRODUCT_UNKNOWN")
        case .purchaseRevoked: (status, code) = (400, "PURCHASE_REVOKED")
        case .linkedToAnotherAccount: (status, code) = (409, "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT")
        case .storeUnavailable: (status, code) = (503, "STORE_UNAVAILABLE")
        case .entitlementInactive: (status, code) = (403, "ENTITLEMENT_INACTIVE")
        case .trialUnavailable: (status, code) = (409, "TRIAL_UNAVAILABLE")
        }
        self.init(status: status, code: code, message: error.text, canTransfer: error.canTransfer)
    }

    private init(_ error: WorkflowError) {
        switch error.code {
        case .notFound: self.init(status: 404, code: "NOT_FOUND", message: error.text)
        case .definitionInvalid, .inputInvalid: self.init(status: 400, code: "VALIDATION_FAILED", message: error.text)
        case .fileInvalid: self.init(status: 400, code: "FILE_INVALID", message: error.text)
        case .insufficientCredits(let balance):
            self.init(status: 402, code: "INSUFFICIENT_CREDITS", message: error.text)
            self.balance = balance
        case .entitlementInactive: self.init(status: 403, code: "ENTITLEMENT_INACTIVE", message: error.text)
        case .idempotencyKeyReused: self.init(status: 422, code: "IDEMPOTENCY_KEY_REUSED", message: error.text)
        }
    }

    private init(_ error: ManagedAPIError) {
        switch error.code {
        case .notFound: self.init(status: 404, code: "MANAGED_API_NOT_FOUND", message: error.text)
        case .definitionInvalid: self.init(status: 400, code: "VALIDATION_FAILED", message: error.text)
        case .secretKeyMissing: self.init(status: 503, code: "SECRET_KEY_MISSING", message: error.text)
        case .notProxied: self.init(status: 409, code: "MANAGED_API_NOT_PROXIED", message: error.text)
        case .pathRefused: self.init(status: 400, code: "PATH_REFUSED", message: error.text)
        case .destinationRefused: self.init(status: 403, code: "DESTINATION_REFUSED", message: error.text)
        case .credentialUnavailable: self.init(status: 502, code: "CREDENTIAL_UNAVAILABLE", message: error.text)
        }
    }

    private init(_ error: CommerceError) {
        switch error.code {
        case .validationFailed: self.init(status: 400, code: "VALIDATION_FAILED", message: error.text)
        case .notFound: self.init(status: 404, code: "NOT_FOUND", message: error.text)
        case .conflict: self.init(status: 409, code: "CONFLICT", message: error.text)
        case .secretKeyMissing: self.init(status: 503, code: "SECRET_KEY_MISSING", message: error.text)
        }
    }

    private init(_ error: CoreError) {
        switch error.code {
        case .notFound: self.init(status: 404, code: "NOT_FOUND", message: error.text)
        case .conflict: self.init(status: 409, code: "CONFLICT", message: error.text)
        case .unauthenticated: self.init(status: 401, code: "UNAUTHENTICATED", message: error.text)
        case .unavailable: self.init(status: 503, code: "SERVICE_UNAVAILABLE", message: error.text)
        case .invalidArgument, .amountOutOfRange: self.init(status: 400, code: "VALIDATION_FAILED", message: error.text)
        }
    }

    static func code(_ code: SessionErrorCode) -> String {
        switch code {
        case .sessionEvicted: "SESSION_EVICTED"
        case .tokenReused: "TOKEN_REUSED"
        case .tokenExpired: "TOKEN_EXPIRED"
        case .tokenInvalid: "TOKEN_INVALID"
        case .sessionNotFound: "SESSION_NOT_FOUND"
        case .accountDeleted: "ACCOUNT_DELETED"
        }
    }

    /// Text for people, shown by apps as-is.
    static func message(_ code: SessionErrorCode) -> String {
        switch code {
        case .sessionEvicted: "You were signed out because this account signed in on another device."
        case .tokenReused: "You were signed out because this session's refresh token was used twice."
        case .tokenExpired: "Your session has expired. Sign in again."
        case .tokenInvalid: "The token is not valid."
        case .sessionNotFound: "This session has ended. Sign in again."
        case .accountDeleted: "This account has been deleted."
        }
    }

    /// The code of a router or transport error: a body refused at the edge (not JSON, a
    /// field named twice, a control character) is this dialect's validation failure.
    static func code(of error: HTTPError) -> String {
        if error.status == 404 { return "NOT_FOUND" }
        if error.status == 413 { return "PAYLOAD_TOO_LARGE" }
        if error.isFieldValidation || error.code == "invalid_body" || error.code == "invalid_multipart" { return "VALIDATION_FAILED" }
        return error.code.uppercased()
    }
}
