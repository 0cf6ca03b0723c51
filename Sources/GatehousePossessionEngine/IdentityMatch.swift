import Foundation

/// How a submitted individual compares with the directory's record, field by field. What the
/// individual leaves out is not compared: nil here, and no lower score.
public struct IdentityComparison: Sendable, Equatable {
    public struct Address: Sendable, Equatable {
        public let street: Bool?
        public let city: Bool?
        public let region: Bool?
        public let postalCode: Bool?
        /// 0–100: the share of the parts compared that matched.
        public var score: Int {
            let compared = [street, city, region, postalCode].compactMap { $0 }
            return compared.isEmpty ? 0 : compared.filter { $0 }.count * 100 / compared.count
        }
    }

    /// 0–100 each; 100 is equal after folding case, accents and punctuation.
    public let firstName: Int?
    public let lastName: Int?
    /// The lower of the names compared; nil when neither was submitted (Complete with the SSN alone).
    public var nameScore: Int? { [firstName, lastName].compactMap { $0 }.min() }
    /// Only the first submitted address counts; nil when none was submitted.
    public let address: Address?
    /// Only the first submitted email counts; nil when none was submitted.
    public let email: Bool?
    public let dob: Bool?
    /// For a submitted SSN of four digits.
    public let last4: Bool?
    /// For a submitted SSN of nine digits.
    public let ssn: Bool?
    public let reasonCodes: [String]

    /// Every submitted field matched.
    public var matched: Bool { reasonCodes.isEmpty }
    /// `high` when everything submitted matched, `medium` when only the name did, else `low`
    /// (also when no name was submitted and an identifier did not match).
    public var confidence: String {
        guard !matched else { return "high" }
        guard let nameScore else { return "low" }
        return nameScore >= IdentityMatch.namePass ? "medium" : "low"
    }
}

enum IdentityMatch {
    /// The name score at which a name counts as the same (a typo or a dropped letter in a long name).
    static let namePass = 80

    static func challenge(_ given: Challenge, matches record: IdentityRecord) -> Bool {
        if let dob = given.dob {
            guard let date = BirthDate(dob), let recorded = record.dob.flatMap(BirthDate.init), date.matches(recorded) else { return false }
        }
        if let ssn = given.ssn {
            guard let recorded = record.ssn, ssn.count == 9 ? ssn == recorded : recorded.hasSuffix(ssn) else { return false }
        }
        return true
    }

    static func prefill(_ record: IdentityRecord, fullSsn: Bool) -> Individual {
        Individual(
            firstName: record.firstName, lastName: record.lastName, addresses: record.addresses, emailAddresses: record.emailAddresses,
            dob: record.dob, ssn: record.ssn.map { fullSsn ? $0 : String($0.suffix(4)) })
    }

    /// The digits of an SSN as Complete takes it (`123-45-6789` too): all nine, or the last four.
    static func ssnDigits(_ text: String) -> String? {
        let digits = text.filter { $0.isASCII && $0.isNumber }
        guard [4, 9].contains(digits.count), text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "-" || $0 == " " }) else { return nil }
        return digits
    }

    static func compare(_ individual: Individual, with record: IdentityRecord) -> IdentityComparison {
        var reasons: [String] = []
        let score: (String?, String) -> Int? = { submitted, recorded in
            submitted.flatMap(Self.given).map { PossessionText.similarity(PossessionText.folded($0), PossessionText.folded(recorded)) }
        }
        let first = score(individual.firstName, record.firstName)
        let last = score(individual.lastName, record.lastName)
        if let name = [first, last].compactMap({ $0 }).min(), name < namePass { reasons.append("NAME_MISMATCH") }
        let address = individual.addresses.first.flatMap { compare($0, with: record.addresses) }
        if let address, address.score < 100 { reasons.append("ADDRESS_MISMATCH") }
        let email = individual.emailAddresses.first.map { submitted in
            record.emailAddresses.contains { $0.lowercased() == submitted.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        if email == false { reasons.append("EMAIL_MISMATCH") }
        let dob = individual.dob.flatMap { $0.isEmpty ? nil : $0 }.map { given in
            (BirthDate(given)).flatMap { date in record.dob.flatMap(BirthDate.init).map(date.matches) } ?? false
        }
        if dob == false { reasons.append("DOB_MISMATCH") }
        let digits = individual.ssn.flatMap(Self.ssnDigits)
        let last4 = digits.flatMap { $0.count == 4 ? (record.ssn?.hasSuffix($0) ?? false) : nil }
        let ssn = digits.flatMap { $0.count == 4 ? nil : ($0 == record.ssn) }
        if last4 == false || ssn == false { reasons.append("SSN_MISMATCH") }
        return IdentityComparison(firstName: first, lastName: last, address: address, email: email, dob: dob, last4: last4, ssn: ssn, reasonCodes: reasons)
    }

    /// The submitted address against the best of the record's; nil when it gives no part. A part
    /// left out (most often the optional unit) is not compared.
    private static func compare(_ submitted: PostalAddress, with addresses: [PostalAddress]) -> IdentityComparison.Address? {
        let line = given(submitted.address), unit = given(submitted.extendedAddress)
        let city = given(submitted.city), region = given(submitted.region), postal = given(submitted.postalCode)
        guard line != nil || unit != nil || city != nil || region != nil || postal != nil else { return nil }
        let results = addresses.map { recorded in
            IdentityComparison.Address(
                street: line == nil && unit == nil ? nil : street(line, unit, matches: recorded),
                city: city.map { PossessionText.folded($0) == PossessionText.folded(recorded.city ?? "") },
                region: region.map { PossessionText.region($0) == PossessionText.region(recorded.region ?? "") },
                postalCode: postal.map { PossessionText.postalCode($0) == PossessionText.postalCode(recorded.postalCode ?? "") })
        }
        return results.max { $0.score < $1.score }
            ?? .init(street: line == nil && unit == nil ? nil : false, city: city.map { _ in false }, region: region.map { _ in false },
                postalCode: postal.map { _ in false })
    }

    /// The street line and the unit read as one line, so a unit written on either line matches;
    /// without a unit, the line may also match the record's line alone.
    private static func street(_ line: String?, _ unit: String?, matches recorded: PostalAddress) -> Bool {
        let joined = { (parts: [String?]) in PossessionText.street(parts.compactMap { $0 }.joined(separator: " ")) }
        let submitted = joined([line, unit])
        return submitted == joined([recorded.address, recorded.extendedAddress]) || (unit == nil && submitted == joined([recorded.address]))
    }

    /// The text, unless it is missing or blank.
    private static func given(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }

    /// Whether the user changed anything of the pre-fill that Complete counts.
    static func changed(_ submitted: Individual, from prefill: Individual) -> Bool {
        let trim: (String?) -> String = { ($0 ?? "").trimmingCharacters(in: .whitespaces) }
        return trim(submitted.firstName) != trim(prefill.firstName) || trim(submitted.lastName) != trim(prefill.lastName)
            || submitted.addresses.first != prefill.addresses.first || submitted.emailAddresses.first != prefill.emailAddresses.first
    }
}
