import Foundation

/// How a submitted individual compares with the directory's record, field by field.
public struct IdentityComparison: Sendable, Equatable {
    public struct Address: Sendable, Equatable {
        public let street: Bool
        public let city: Bool
        public let region: Bool
        public let postalCode: Bool
        public let score: Int
    }

    /// 0–100 each; 100 is equal after folding case, accents and punctuation.
    public let firstName: Int
    public let lastName: Int
    public var nameScore: Int { min(firstName, lastName) }
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
    /// `high` when everything submitted matched, `medium` when only the name did, else `low`.
    public var confidence: String { matched ? "high" : nameScore >= IdentityMatch.namePass ? "medium" : "low" }
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

    static func compare(_ individual: Individual, with record: IdentityRecord) -> IdentityComparison {
        var reasons: [String] = []
        let first = PossessionText.similarity(PossessionText.folded(individual.firstName ?? ""), PossessionText.folded(record.firstName))
        let last = PossessionText.similarity(PossessionText.folded(individual.lastName ?? ""), PossessionText.folded(record.lastName))
        if min(first, last) < namePass { reasons.append("NAME_MISMATCH") }
        let address = individual.addresses.first.map { compare($0, with: record.addresses) }
        if let address, address.score < 100 { reasons.append("ADDRESS_MISMATCH") }
        let email = individual.emailAddresses.first.map { submitted in
            record.emailAddresses.contains { $0.lowercased() == submitted.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        if email == false { reasons.append("EMAIL_MISMATCH") }
        let dob = individual.dob.flatMap { $0.isEmpty ? nil : $0 }.map { given in
            (BirthDate(given)).flatMap { date in record.dob.flatMap(BirthDate.init).map(date.matches) } ?? false
        }
        if dob == false { reasons.append("DOB_MISMATCH") }
        let ssnDigits = individual.ssn.map { $0.filter(\.isNumber) }.flatMap { $0.isEmpty ? nil : $0 }
        let last4 = ssnDigits.flatMap { $0.count == 4 ? (record.ssn?.hasSuffix($0) ?? false) : nil }
        let ssn = ssnDigits.flatMap { $0.count == 4 ? nil : ($0 == record.ssn) }
        if last4 == false || ssn == false { reasons.append("SSN_MISMATCH") }
        return IdentityComparison(firstName: first, lastName: last, address: address, email: email, dob: dob, last4: last4, ssn: ssn, reasonCodes: reasons)
    }

    /// The submitted address against the best of the record's.
    private static func compare(_ submitted: PostalAddress, with addresses: [PostalAddress]) -> IdentityComparison.Address {
        let results = addresses.map { recorded -> IdentityComparison.Address in
            let street = same(submitted.address, recorded.address, PossessionText.street)
                && same(submitted.extendedAddress, recorded.extendedAddress, PossessionText.street)
            let city = same(submitted.city, recorded.city, PossessionText.folded)
            let region = same(submitted.region, recorded.region, PossessionText.region)
            let postal = same(submitted.postalCode, recorded.postalCode, PossessionText.postalCode)
            let score = [street, city, region, postal].filter { $0 }.count * 25
            return .init(street: street, city: city, region: region, postalCode: postal, score: score)
        }
        return results.max { $0.score < $1.score } ?? .init(street: false, city: false, region: false, postalCode: false, score: 0)
    }

    private static func same(_ a: String?, _ b: String?, _ normal: (String) -> String) -> Bool {
        normal(a ?? "") == normal(b ?? "")
    }

    /// Whether the user changed anything of the pre-fill that Complete counts.
    static func changed(_ submitted: Individual, from prefill: Individual) -> Bool {
        let trim: (String?) -> String = { ($0 ?? "").trimmingCharacters(in: .whitespaces) }
        return trim(submitted.firstName) != trim(prefill.firstName) || trim(submitted.lastName) != trim(prefill.lastName)
            || submitted.addresses.first != prefill.addresses.first || submitted.emailAddresses.first != prefill.emailAddresses.first
    }
}
