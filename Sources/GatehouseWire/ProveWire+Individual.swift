import Foundation

extension ProveWire {
    /// A person as the pre-fill returns them and as Complete receives them.
    public struct Individual: Codable, Sendable, Equatable {
        public var firstName: String?
        public var lastName: String?
        public var addresses: [Address]?
        public var emailAddresses: [String]?
        /// `YYYY-MM-DD` (Complete also takes `YYYY-MM` and `MM-DD`).
        public var dob: String?
        /// The last four digits unless the tenant turned on full return.
        public var ssn: String?

        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable { case firstName, lastName, addresses, emailAddresses, dob, ssn }

        /// An individual.
        public init(
            firstName: String? = nil, lastName: String? = nil, addresses: [Address]? = nil, emailAddresses: [String]? = nil,
            dob: String? = nil, ssn: String? = nil
        ) {
            self.firstName = firstName
            self.lastName = lastName
            self.addresses = addresses
            self.emailAddresses = emailAddresses
            self.dob = dob
            self.ssn = ssn
        }
    }

    /// A postal address (`postalCode`: 5 digits or ZIP+4).
    public struct Address: Codable, Sendable, Equatable {
        public var address: String?
        public var extendedAddress: String?
        public var city: String?
        public var region: String?
        public var postalCode: String?

        /// The JSON keys.
        public enum CodingKeys: String, CodingKey, CaseIterable { case address, extendedAddress, city, region, postalCode }

        /// An address.
        public init(address: String? = nil, extendedAddress: String? = nil, city: String? = nil, region: String? = nil, postalCode: String? = nil) {
            self.address = address
            self.extendedAddress = extendedAddress
            self.city = city
            self.region = region
            self.postalCode = postalCode
        }
    }

    /// Complete's per-field results, in the shape of Prove's `idv` (one data source: the
    /// tenant's directory).
    public struct IdentityVerification: Codable, Sendable, Equatable {
        public var dataSource1: DataSourceResult
        /// `high` when every field given matched, `medium` when at least the name did, else `low`
        /// (also when no name was given and an identifier did not match).
        public var multiCIPConfidence: String

        /// Results.
        public init(dataSource1: DataSourceResult, multiCIPConfidence: String) {
            self.dataSource1 = dataSource1
            self.multiCIPConfidence = multiCIPConfidence
        }
    }

    /// How the submitted individual compares with one source's record. As in Prove's models, what
    /// was not compared is left out, and so is an empty `reasonCodes`.
    public struct DataSourceResult: Codable, Sendable, Equatable {
        /// `nil` when no name was submitted (Complete with the SSN alone).
        public var name: NameResult?
        public var address: AddressResult?
        public var email: EmailResult?
        public var identifiers: IdentifierResult
        public var cipConfidence: String
        /// Why a field did not match: `NAME_MISMATCH`, `ADDRESS_MISMATCH`, `EMAIL_MISMATCH`, `DOB_MISMATCH`, `SSN_MISMATCH`.
        public var reasonCodes: [String]?

        /// A source's results.
        public init(
            name: NameResult?, address: AddressResult?, email: EmailResult?, identifiers: IdentifierResult, cipConfidence: String,
            reasonCodes: [String]?
        ) {
            self.name = name
            self.address = address
            self.email = email
            self.identifiers = identifiers
            self.cipConfidence = cipConfidence
            self.reasonCodes = reasonCodes
        }
    }

    /// Name scores, 0–100: 100 is equal after normalisation; a name not submitted has none.
    public struct NameResult: Codable, Sendable, Equatable {
        public var firstName: Int?
        public var lastName: Int?
        /// The lower of those given.
        public var nameScore: Int
        /// Scores.
        public init(firstName: Int?, lastName: Int?, nameScore: Int) {
            self.firstName = firstName
            self.lastName = lastName
            self.nameScore = nameScore
        }
    }

    /// Which parts of the first address matched, and a score, 0–100, over the parts submitted
    /// (a part left out, such as the unit in `extendedAddress`, is not compared and has no result).
    public struct AddressResult: Codable, Sendable, Equatable {
        public var street: Bool?
        public var city: Bool?
        public var region: Bool?
        public var postalCode: Bool?
        public var addressScore: Int
        /// Parts.
        public init(street: Bool?, city: Bool?, region: Bool?, postalCode: Bool?, addressScore: Int) {
            self.street = street
            self.city = city
            self.region = region
            self.postalCode = postalCode
            self.addressScore = addressScore
        }
    }

    /// Whether the first email address matched.
    public struct EmailResult: Codable, Sendable, Equatable {
        public var emailAddress: Bool
        /// A result.
        public init(emailAddress: Bool) { self.emailAddress = emailAddress }
    }

    /// Whether the identifiers given matched; `nil` when not submitted.
    public struct IdentifierResult: Codable, Sendable, Equatable {
        public var dob: Bool?
        public var last4: Bool?
        public var ssn: Bool?
        /// Results.
        public init(dob: Bool?, last4: Bool?, ssn: Bool?) {
            self.dob = dob
            self.last4 = last4
            self.ssn = ssn
        }
    }
}
