import Foundation
import GatehouseCore
import GatehouseDatabase

/// The tenant-managed identity directory behind pre-fill: records imported by the operator
/// in bulk, one per number, the date of birth and SSN sealed to the tenant and number.
extension PossessionEngine {
    /// Most records one import takes.
    public static let maxImport = 10_000

    /// Adds or replaces records by number; all or none. Returns how many numbers were written
    /// (a number given twice counts once, its last record standing).
    @discardableResult
    public func importIdentities(tenantID: String, _ records: [IdentityRecord]) async throws -> Int {
        let keys = try requireKeys()
        guard records.count <= Self.maxImport else { throw PossessionError.invalid("identities", .atMostRecords(Self.maxImport)) }
        let now = self.now
        let environment = try await settings(tenantID: tenantID).environment
        var byNumber: [String: IdentityRecord] = [:]
        for (index, record) in records.enumerated() {
            let checked = try Self.checked(record, environment: environment, field: "identities[\(index)]")
            byNumber[checked.phoneNumber] = checked  // one record per number: the last given stands
        }
        let rows = byNumber.values.sorted { $0.phoneNumber < $1.phoneNumber }
        try await database.write { db in
            for record in rows {
                let context = Self.identityContext(tenantID, record.phoneNumber)
                try db.execute(
                    """
                    INSERT INTO possession_identities (tenant_id, phone_number, first_name, last_name, addresses, email_addresses, sealed_dob,
                      sealed_ssn, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, phone_number) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name,
                      addresses = excluded.addresses, email_addresses = excluded.email_addresses, sealed_dob = excluded.sealed_dob,
                      sealed_ssn = excluded.sealed_ssn, updated_at = excluded.updated_at
                    """,
                    [
                        tenantID.sqlValue, record.phoneNumber.sqlValue, record.firstName.sqlValue, record.lastName.sqlValue,
                        try StoredJSON.encode(record.addresses).sqlValue, try StoredJSON.encode(record.emailAddresses).sqlValue,
                        record.dob.map { keys.box.seal($0, context: context + "\ndob") }.sqlValue,
                        record.ssn.map { keys.box.seal($0, context: context + "\nssn") }.sqlValue, now.sqlValue,
                    ])
            }
        }
        return rows.count
    }

    /// How many records the directory holds.
    public func identityCount(tenantID: String) async throws -> Int {
        try await database.read { db in
            try db.queryOne("SELECT COUNT(*) AS n FROM possession_identities WHERE tenant_id = ?", tenantID)!.get("n")
        }
    }

    /// Removes the record of a number.
    public func removeIdentity(tenantID: String, phoneNumber: String) async throws {
        let environment = try await settings(tenantID: tenantID).environment
        let number = try PossessionNumbers.e164(phoneNumber, environment: environment, field: "phoneNumber")
        let removed = try await database.write { db in
            try db.execute("DELETE FROM possession_identities WHERE tenant_id = ? AND phone_number = ?", tenantID, number)
        }
        guard removed == 1 else { throw PossessionError(.notFound, .noIdentityForNumber) }
    }

    func identity(_ db: any DatabaseConnection, tenantID: String, phoneNumber: String) throws -> IdentityRecord? {
        guard let row = try db.queryOne("SELECT * FROM possession_identities WHERE tenant_id = ? AND phone_number = ?", tenantID, phoneNumber)
        else { return nil }
        let context = Self.identityContext(tenantID, phoneNumber)
        let open: (String, String) throws -> String? = { column, suffix in
            guard let sealed = try row.get(column, as: String?.self) else { return nil }
            guard let value = self.keys?.box.open(sealed, context: context + suffix) else {
                throw PossessionError(.notConfigured, .identityUnreadable)
            }
            return value
        }
        return IdentityRecord(
            phoneNumber: phoneNumber, firstName: try row.get("first_name"), lastName: try row.get("last_name"),
            addresses: try StoredJSON.decode(try row.get("addresses")), emailAddresses: try StoredJSON.decode(try row.get("email_addresses")),
            dob: try open("sealed_dob", "\ndob"), ssn: try open("sealed_ssn", "\nssn"))
    }

    static func identityContext(_ tenantID: String, _ phoneNumber: String) -> String { "possession-identity\n\(tenantID)\n\(phoneNumber)" }

    /// A record checked field by field, its number in E.164.
    static func checked(_ record: IdentityRecord, environment: PossessionSettings.Environment, field: String) throws -> IdentityRecord {
        var record = record
        record.phoneNumber = try PossessionNumbers.e164(record.phoneNumber, environment: environment, field: field + ".phoneNumber")
        for (name, value) in [("firstName", record.firstName), ("lastName", record.lastName)] {
            guard PossessionText.isName(value) else { throw PossessionError.invalid("\(field).\(name)", .printableText(1...100)) }
        }
        guard record.addresses.count <= 10, record.emailAddresses.count <= 10 else {
            throw PossessionError.invalid(field, .atMostAddresses(10, emailAddresses: 10))
        }
        for address in record.addresses {
            for part in [address.address, address.extendedAddress, address.city, address.region, address.postalCode].compactMap({ $0 }) {
                guard PossessionText.isName(part, max: 200) else { throw PossessionError.invalid("\(field).addresses", .printableParts(1...200)) }
            }
        }
        for email in record.emailAddresses where !PossessionNumbers.isEmail(email) {
            throw PossessionError.invalid("\(field).emailAddresses", .emailAddresses)
        }
        if let dob = record.dob {
            guard let date = BirthDate(dob), date.isComplete else { throw PossessionError.invalid("\(field).dob", .completeDate) }
        }
        if let ssn = record.ssn {
            guard ssn.utf8.count == 9, ssn.utf8.allSatisfy({ (48...57).contains($0) }) else { throw PossessionError.invalid("\(field).ssn", .digits(9...9)) }
        }
        return record
    }
}
