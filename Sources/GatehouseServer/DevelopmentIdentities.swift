import GatehousePossessionEngine

/// The development tenant's test identities for pre-fill. In test mode a number ending in an
/// even digit passes the carrier check, an odd one falls to the code (`1234`), and one ending
/// in `00` or `99` finds the check unavailable (also the code). The last two are Prove's
/// sandbox short-term users (`SandboxShortTermUsers`), with Prove's published test data: their
/// flows pass Validate with no device, so Prove's public collection replays as it is.
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
        IdentityRecord(
            phoneNumber: "+12001001695", firstName: "Milo", lastName: "Pinson",
            addresses: [PostalAddress(address: "6377 Birchwood Hill", city: "Littleton", region: "CO", postalCode: "80161-2001")],
            emailAddresses: ["mpinsonm@dyndns.org"], dob: "1981-01-17", ssn: "847350596"),
        IdentityRecord(
            phoneNumber: "+12001004000", firstName: "Martina", lastName: "Goodram",
            addresses: [PostalAddress(address: "28965 Homewood Plaza", city: "Little Rock", region: "AR", postalCode: "72204")],
            emailAddresses: ["mgoodram0@nasa.gov"], dob: "1995-07-26", ssn: "490959347"),
    ]
}
