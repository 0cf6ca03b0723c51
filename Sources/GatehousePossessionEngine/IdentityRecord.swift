import Foundation

/// A person in a tenant's identity directory, found by the number whose possession a flow
/// proved. The date of birth and the SSN are sealed at rest.
public struct IdentityRecord: Sendable, Equatable, Codable {
    public var phoneNumber: String
    public var firstName: String
    public var lastName: String
    public var addresses: [PostalAddress]
    public var emailAddresses: [String]
    /// `YYYY-MM-DD`.
    public var dob: String?
    /// Nine digits.
    public var ssn: String?

    public init(
        phoneNumber: String, firstName: String, lastName: String, addresses: [PostalAddress] = [], emailAddresses: [String] = [],
        dob: String? = nil, ssn: String? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.firstName = firstName
        self.lastName = lastName
        self.addresses = addresses
        self.emailAddresses = emailAddresses
        self.dob = dob
        self.ssn = ssn
    }
}

/// A postal address: street line, extended line (unit), city, region, postal code.
public struct PostalAddress: Sendable, Equatable, Codable {
    public var address: String?
    public var extendedAddress: String?
    public var city: String?
    public var region: String?
    public var postalCode: String?

    public init(address: String? = nil, extendedAddress: String? = nil, city: String? = nil, region: String? = nil, postalCode: String? = nil) {
        self.address = address
        self.extendedAddress = extendedAddress
        self.city = city
        self.region = region
        self.postalCode = postalCode
    }
}

/// A person as Challenge returns them and as Complete receives them (every field optional).
public struct Individual: Sendable, Equatable, Codable {
    public var firstName: String?
    public var lastName: String?
    public var addresses: [PostalAddress]
    public var emailAddresses: [String]
    public var dob: String?
    public var ssn: String?

    public init(
        firstName: String? = nil, lastName: String? = nil, addresses: [PostalAddress] = [], emailAddresses: [String] = [], dob: String? = nil,
        ssn: String? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.addresses = addresses
        self.emailAddresses = emailAddresses
        self.dob = dob
        self.ssn = ssn
    }
}
