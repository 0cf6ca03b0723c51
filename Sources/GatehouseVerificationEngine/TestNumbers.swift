import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseFormats

/// A tenant's test numbers and emails (Apple's App Review, CI): a start to one sends nothing
/// and costs nothing, and its fixed code verifies it; attempts, expiry, supersede and sign-in
/// behave as for any destination. Only reserved ranges are taken unless the operator confirms
/// the number, so a real subscriber's number is not made a backdoor by a typo.
public struct TestNumber: Sendable, Equatable {
    /// E.164 digits (no `+`) or a lower-cased email address.
    public let destination: String
    /// 4 to 8 digits.
    public let code: String
    /// Outside the reserved ranges, the operator said it is theirs.
    public let confirmed: Bool
    public let createdAt: Date
}

extension VerificationEngine {
    /// Most test numbers a tenant may hold.
    public static let maxTestNumbers = 10

    public func testNumbers(tenantID: String) async throws -> [TestNumber] {
        try await database.read { db in
            try db.query("SELECT * FROM verification_test_numbers WHERE tenant_id = ? ORDER BY destination", tenantID).map(TestNumber.init(row:))
        }
    }

    /// Adds or replaces a test number. `destination` is a phone number (with `+`, or digits) or an email.
    @discardableResult
    public func saveTestNumber(tenantID: String, destination raw: String, code: String, confirmed: Bool) async throws -> TestNumber {
        let destination = try Self.testDestination(raw)
        guard (4...8).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw CoreError.invalid("code", .digits(4...8))
        }
        guard confirmed || Self.isReserved(destination) else {
            throw CoreError(.invalidArgument, .testDestinationNotReserved(isEmail: destination.contains("@")))
        }
        let now = self.now
        let limit = Self.maxTestNumbers
        return try await database.write { db in
            // Saves of one tenant's test numbers take turns on its row (an operator's rare
            // call, never a request path), so two at once cannot both take the last place.
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?" + db.dialect.forUpdate, tenantID) != nil else {
                throw CoreError.notFound(.tenant)
            }
            let count: Int = try db.queryOne(
                "SELECT COUNT(*) AS n FROM verification_test_numbers WHERE tenant_id = ? AND destination <> ?", tenantID, destination)!.get("n")
            guard count < limit else { throw CoreError(.conflict, .tenantHoldsMost(.testNumber, limit: limit)) }
            try db.execute(
                """
                INSERT INTO verification_test_numbers (tenant_id, destination, code, confirmed, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, destination) DO UPDATE SET code = excluded.code, confirmed = excluded.confirmed
                """, tenantID, destination, code, confirmed, now)
            return try TestNumber(row: db.queryOne(
                "SELECT * FROM verification_test_numbers WHERE tenant_id = ? AND destination = ?", tenantID, destination)!)
        }
    }

    public func removeTestNumber(tenantID: String, destination raw: String) async throws {
        let destination = try Self.testDestination(raw)
        let removed = try await database.write { db in
            try db.execute("DELETE FROM verification_test_numbers WHERE tenant_id = ? AND destination = ?", tenantID, destination)
        }
        guard removed == 1 else { throw CoreError.notFound(.testNumber) }
    }

    /// `code`, the fixed code a start's reads found for `destination` (``TemplateChoice/Reads/testCode()``);
    /// each use is logged and counted.
    func countedUse(of code: String?, tenantID: String, destination: String) -> String? {
        guard let code else { return nil }
        testNumberUses.increment(["tenant": tenantID])
        environment.logger.info("a start to a test number: nothing is sent", ["tenant": .plain(tenantID), "destination": .init(destination)])
        return code
    }

    static func testDestination(_ raw: String) throws -> String {
        let text = raw.trimmingWhitespace
        if text.contains("@") {
            guard text.utf8.count <= 254, !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }),
                text.split(separator: "@", omittingEmptySubsequences: false).count == 2
            else { throw CoreError.invalid("destination", .emailAddress) }
            return text.lowercased()
        }
        let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard let number = try? PhoneNumber.parseDigits(digits), number.isPossible else {
            throw CoreError.invalid("destination", .numberOrEmail)
        }
        return String(number.e164.dropFirst())
    }

    /// Fictional ranges set aside by numbering plans (NANP 555-0100–0199, Ofcom's drama ranges,
    /// ACMA's) and reserved email domains (RFC 2606, RFC 6761).
    static func isReserved(_ destination: String) -> Bool {
        if let at = destination.lastIndex(of: "@") {
            let domain = destination[destination.index(after: at)...]
            return ["example.com", "example.net", "example.org"].contains(String(domain))
                || [".test", ".example", ".invalid", ".localhost"].contains { domain.hasSuffix($0) }
        }
        let digits = Array(destination)
        if digits.count == 11, digits.first == "1", String(digits[4..<9]) == "55501" { return true }
        return destination.hasPrefix("447700900") && destination.count == 12 || destination.hasPrefix("6149157") && destination.count == 11
    }
}

extension TestNumber {
    init(row: Row) throws {
        destination = try row.get("destination")
        code = try row.get("code")
        confirmed = try row.get("confirmed")
        createdAt = try row.get("created_at")
    }
}
