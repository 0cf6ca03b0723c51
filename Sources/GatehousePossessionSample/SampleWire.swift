import Foundation
import GatehouseWire

/// The sample backend's own JSON, as the seed's app snippets send and read it.
public enum SampleWire {
    /// `POST /initialize`: the seed sends `phoneNumber`, `flowType` and `ssn` (or `dob`).
    public struct Initialize: Codable, Sendable, Equatable {
        public var phoneNumber: String?
        public var flowType: String?
        public var ssn: String?
        public var dob: String?
        /// Lets the user enter the code up to three times (Start's `allowOTPRetry`).
        public var allowOTPRetry: Bool?
        public var smsMessage: String?
        /// An initialize request.
        public init(phoneNumber: String?, flowType: String?, ssn: String? = nil, dob: String? = nil, allowOTPRetry: Bool? = nil, smsMessage: String? = nil) {
            self.phoneNumber = phoneNumber
            self.flowType = flowType
            self.ssn = ssn
            self.dob = dob
            self.allowOTPRetry = allowOTPRetry
            self.smsMessage = smsMessage
        }
    }

    /// The answer to `/initialize`.
    public struct Initialized: Codable, Sendable, Equatable {
        public var authToken: String
    }

    /// `POST /verify`: the `authId` AuthFinish received; `dob` or `ssn` when Validate said a challenge is missing.
    public struct Verify: Codable, Sendable, Equatable {
        public var authId: String?
        public var dob: String?
        public var ssn: String?
        /// A verify request.
        public init(authId: String?, dob: String? = nil, ssn: String? = nil) {
            self.authId = authId
            self.dob = dob
            self.ssn = ssn
        }
    }

    /// The pre-fill the seed's `/verify` snippet reads (`firstName`, `lastName`), with the rest of it.
    public struct Verified: Codable, Sendable, Equatable {
        public var success: Bool
        public var challengeMissing: Bool?
        public var firstName: String?
        public var lastName: String?
        public var addresses: [ProveWire.Address]?
        public var emailAddresses: [String]?
        public var dob: String?
        /// The last four digits.
        public var ssn: String?
    }

    /// `POST /finish`: the fields as the user left them; the seed sends only the names.
    public struct Finish: Codable, Sendable, Equatable {
        public var authId: String?
        public var firstName: String?
        public var lastName: String?
        public var address: ProveWire.Address?
        public var emailAddress: String?
        /// A finish request.
        public init(authId: String? = nil, firstName: String?, lastName: String?, address: ProveWire.Address? = nil, emailAddress: String? = nil) {
            self.authId = authId
            self.firstName = firstName
            self.lastName = lastName
            self.address = address
            self.emailAddress = emailAddress
        }
    }

    /// The sample's error body.
    public struct Failure: Codable, Sendable, Equatable {
        public var error: String
        public var code: Int?
    }
}
