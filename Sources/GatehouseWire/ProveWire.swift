import Foundation

/// Prove's v3 server API as Gatehouse serves it (`POST /token`, `/v3/start`, `/v3/validate`,
/// `/v3/challenge`, `/v3/complete`): the field names of Prove's published models, shared by
/// the server's routes, the sample backend's client and the tests. Request fields are
/// optional here so that a missing one is the dialect's 400 `{"code":1001}` naming it.
public enum ProveWire {
    /// The operation ids of the `next` map, and the map's last value.
    public enum Step: String, Sendable, CaseIterable {
        case validate = "v3-validate"
        case challenge = "v3-challenge"
        case complete = "v3-complete"
        case done

        /// The path `next` names for this operation (`done` maps to itself).
        public var path: String {
            switch self {
            case .validate: "/v3/validate"
            case .challenge: "/v3/challenge"
            case .complete: "/v3/complete"
            case .done: "done"
            }
        }

        /// The one-entry `next` map that allows only this step.
        public var next: [String: String] { [rawValue: path] }
    }

    /// `POST /token`, form-encoded as RFC 6749 §4.4 has it: `grant_type=client_credentials`,
    /// `client_id`, `client_secret`.
    public struct TokenResponse: Codable, Sendable, Equatable {
        public var accessToken: String
        public var tokenType: String
        public var expiresIn: Int
        /// Marked "not currently supported" by Prove; never sent.
        public var refreshToken: String?
        public var refreshExpiresIn: Int?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
            case refreshToken = "refresh_token", refreshExpiresIn = "refresh_expires_in"
        }

        /// A bearer token that lives `expiresIn` seconds.
        public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int) {
            self.accessToken = accessToken
            self.tokenType = tokenType
            self.expiresIn = expiresIn
        }
    }

    /// `POST /v3/start`.
    public struct StartRequest: Codable, Sendable, Equatable {
        /// `mobile` or `desktop`; required.
        public var flowType: String?
        public var phoneNumber: String?
        /// Required when `flowType` is `desktop`: where the Instant Link lands, ≤128 characters.
        public var finalTargetUrl: String?
        /// The full SSN or its last four digits.
        public var ssn: String?
        /// `YYYY-MM-DD`, `YYYY-MM` or `MM-DD`.
        public var dob: String?
        public var emailAddress: String?
        public var ipAddress: String?
        /// ≤160 characters; `####` to `######` is where the code goes and sets its length.
        public var smsMessage: String?
        /// Lets the user enter the code up to three times.
        public var allowOTPRetry: Bool?

        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case flowType, phoneNumber, finalTargetUrl, ssn, dob, emailAddress, ipAddress, smsMessage, allowOTPRetry
        }

        /// A start request.
        public init(
            flowType: String?, phoneNumber: String? = nil, finalTargetUrl: String? = nil, ssn: String? = nil, dob: String? = nil,
            emailAddress: String? = nil, ipAddress: String? = nil, smsMessage: String? = nil, allowOTPRetry: Bool? = nil
        ) {
            self.flowType = flowType
            self.phoneNumber = phoneNumber
            self.finalTargetUrl = finalTargetUrl
            self.ssn = ssn
            self.dob = dob
            self.emailAddress = emailAddress
            self.ipAddress = ipAddress
            self.smsMessage = smsMessage
            self.allowOTPRetry = allowOTPRetry
        }
    }

    /// The answer to Start: the device's one-time token, the flow's id, and what may follow.
    public struct StartResponse: Codable, Sendable, Equatable {
        public var authToken: String
        public var correlationId: String
        public var next: [String: String]

        /// A start response.
        public init(authToken: String, correlationId: String, next: [String: String]) {
            self.authToken = authToken
            self.correlationId = correlationId
            self.next = next
        }
    }

    /// `POST /v3/validate`.
    public struct ValidateRequest: Codable, Sendable, Equatable {
        public var correlationId: String?
        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable { case correlationId }
        /// A validate request.
        public init(correlationId: String?) { self.correlationId = correlationId }
    }

    /// Whether the device proved possession of the number, and whether a challenge is due.
    public struct ValidateResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var challengeMissing: Bool
        /// The number that was validated.
        public var phoneNumber: String?
        public var next: [String: String]

        /// A validate response.
        public init(success: Bool, challengeMissing: Bool, phoneNumber: String?, next: [String: String]) {
            self.success = success
            self.challengeMissing = challengeMissing
            self.phoneNumber = phoneNumber
            self.next = next
        }
    }

    /// `POST /v3/challenge`: the date of birth or the SSN (full or its last four).
    public struct ChallengeRequest: Codable, Sendable, Equatable {
        public var correlationId: String?
        public var dob: String?
        public var ssn: String?
        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable { case correlationId, dob, ssn }
        /// A challenge request.
        public init(correlationId: String?, dob: String? = nil, ssn: String? = nil) {
            self.correlationId = correlationId
            self.dob = dob
            self.ssn = ssn
        }
    }

    /// The pre-fill, when the challenge matched an identity.
    public struct ChallengeResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var individual: Individual?
        public var next: [String: String]

        /// A challenge response.
        public init(success: Bool, individual: Individual?, next: [String: String]) {
            self.success = success
            self.individual = individual
            self.next = next
        }
    }

    /// `POST /v3/complete`: the individual as the user confirmed or edited it. Only the first
    /// address and the first email address count.
    public struct CompleteRequest: Codable, Sendable, Equatable {
        public var correlationId: String?
        public var individual: Individual?
        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable { case correlationId, individual }
        /// A complete request.
        public init(correlationId: String?, individual: Individual?) {
            self.correlationId = correlationId
            self.individual = individual
        }
    }

    /// Whether the individual was verified, with the per-field results.
    public struct CompleteResponse: Codable, Sendable, Equatable {
        public var success: Bool
        public var next: [String: String]
        public var idv: IdentityVerification?
        /// Whether the submitted individual differs from the pre-fill.
        public var changeDetected: Bool?

        /// A complete response.
        public init(success: Bool, next: [String: String], idv: IdentityVerification?, changeDetected: Bool?) {
            self.success = success
            self.next = next
            self.idv = idv
            self.changeDetected = changeDetected
        }
    }

    /// Prove's error body: `{"code":1003,"message":"step not allowed"}`.
    public struct ErrorBody: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String
        /// An error.
        public init(code: Int, message: String) {
            self.code = code
            self.message = message
        }
    }
}
