import GatehousePossessionEngine

/// The development tenant's test identities for pre-fill. In test mode a number ending in an
/// even digit passes the carrier check, an odd one falls to the code (`1234`), and one ending
/// in `00` or `99` finds the check unavailable (also the code).
enum DevelopmentIdentities {
    static let records = [
        IdentityRecord(
            phoneNumber: "+12025550142", firstName: "Ada", lastName: "Lovelace",
            addresses: [PostalAddress(address: "12 North Main Street", extendedAddress: "Apt 4", city: "Springfield", region: "IL", postalCode: "62701")],
            emailAddresses: ["ada@example.com"], dob: "1985-12-10", ssn: "123456789"),
        IdentityRecord(
            phoneNumber: "+12025550143", firstName: "Grace", lastName: "Hopper",
            addresses: [PostalAddress(address: "500 Market Avenue", city: "Arlington", region: "VA", postalCode: "22201-1234")],
            emailAddresses: ["grace@example.com"], dob: "1976-12-09", ssn: "987654321"),
        IdentityRecord(
            phoneNumber: "+12025550100", firstName: "José", lastName: "Núñez",
            addresses: [PostalAddress(address: "7 West Road", city: "Austin", region: "TX", postalCode: "78701")],
            emailAddresses: ["jose@example.com"], dob: "1990-01-31", ssn: "111223333"),
    ]
}
