import Foundation

/// Text as Complete compares it: case, accents, width and punctuation folded, whitespace
/// collapsed, and in addresses the usual abbreviations (USPS Publication 28) applied.
enum PossessionText {
    static func isName(_ text: String, max: Int = 100) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return (1...max).contains(trimmed.count) && !hasHiddenCharacters(trimmed)
    }

    /// Controls, format characters (bidirectional overrides, zero-width joiners) and line or
    /// paragraph separators: nothing a person's name, an address or an SMS needs.
    static func hasHiddenCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
            default: false
            }
        }
    }

    /// Folded words: `" José  O'Neil "` → `["jose", "o", "neil"]`.
    static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        return folded.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    static func folded(_ text: String) -> String { words(text).joined(separator: " ") }

    /// A street line in a comparable form: `"12 North Main Street, Apt. 4"` → `"12 n main st apt 4"`.
    static func street(_ text: String) -> String {
        words(text).map { abbreviations[$0] ?? $0 }.joined(separator: " ")
    }

    /// A region as its two-letter code when it is a US state's name.
    static func region(_ text: String) -> String {
        let name = folded(text)
        return states[name] ?? name
    }

    /// The first five digits of a ZIP or ZIP+4; any other code (`M5H 2N2`) without spaces or case.
    static func postalCode(_ text: String) -> String {
        let digits = text.filter(\.isASCII).filter(\.isNumber)
        return digits.count >= 5 && digits.count == text.filter { $0.isLetter || $0.isNumber }.count ? String(digits.prefix(5)) : words(text).joined()
    }

    /// 0–100: 100 when equal, less by the share of edits (Levenshtein) it takes to get there.
    static func similarity(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        guard !x.isEmpty || !y.isEmpty else { return 100 }
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return Int((100 * (1 - Double(previous[y.count]) / Double(Swift.max(x.count, y.count)))).rounded(.down))
    }

    static let abbreviations: [String: String] = [
        "street": "st", "str": "st", "avenue": "ave", "av": "ave", "road": "rd", "boulevard": "blvd", "drive": "dr", "lane": "ln",
        "court": "ct", "place": "pl", "square": "sq", "terrace": "ter", "circle": "cir", "highway": "hwy", "parkway": "pkwy",
        "expressway": "expy", "freeway": "fwy", "trail": "trl", "way": "way", "alley": "aly", "crossing": "xing", "heights": "hts",
        "point": "pt", "mount": "mt", "mountain": "mtn", "suite": "ste", "apartment": "apt", "building": "bldg", "floor": "fl",
        "room": "rm", "unit": "unit", "north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw",
        "southeast": "se", "southwest": "sw", "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th",
    ]

    static let states: [String: String] = {
        let pairs = """
            alabama al alaska ak arizona az arkansas ar california ca colorado co connecticut ct delaware de florida fl georgia ga \
            hawaii hi idaho id illinois il indiana in iowa ia kansas ks kentucky ky louisiana la maine me maryland md \
            massachusetts ma michigan mi minnesota mn mississippi ms missouri mo montana mt nebraska ne nevada nv \
            new_hampshire nh new_jersey nj new_mexico nm new_york ny north_carolina nc north_dakota nd ohio oh oklahoma ok \
            oregon or pennsylvania pa rhode_island ri south_carolina sc south_dakota sd tennessee tn texas tx utah ut vermont vt \
            virginia va washington wa west_virginia wv wisconsin wi wyoming wy district_of_columbia dc puerto_rico pr
            """.split(separator: " ").map(String.init)
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: pairs.count - 1, by: 2).map {
            (pairs[$0].replacingOccurrences(of: "_", with: " "), pairs[$0 + 1])
        })
    }()
}

/// A date of birth as the dialect takes it: `YYYY-MM-DD`, `YYYY-MM` or `MM-DD`. A partial one
/// matches a full record on the parts it has.
struct BirthDate: Equatable {
    let year: Int?
    let month: Int
    let day: Int?

    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }) else { return nil }
        switch parts.map(\.count) {
        case [4, 2, 2]: (year, month, day) = (Int(parts[0]), Int(parts[1])!, Int(parts[2]))
        case [4, 2]: (year, month, day) = (Int(parts[0]), Int(parts[1])!, nil)
        case [2, 2]: (year, month, day) = (nil, Int(parts[0])!, Int(parts[1]))
        default: return nil
        }
        guard (1...12).contains(month), year.map({ (1880...2200).contains($0) }) ?? true else { return nil }
        if let day {
            var components = DateComponents(year: year ?? 2000, month: month, day: day)
            components.calendar = Calendar(identifier: .gregorian)
            guard (1...31).contains(day), components.isValidDate else { return nil }
        }
    }

    var isComplete: Bool { year != nil && day != nil }

    /// Whether this (possibly partial) date agrees with the full date `record`.
    func matches(_ record: BirthDate) -> Bool {
        month == record.month && (year == nil || year == record.year) && (day == nil || day == record.day)
    }
}
