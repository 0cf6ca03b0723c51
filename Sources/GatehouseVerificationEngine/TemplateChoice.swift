import GatehouseDatabase

/// Which template a verification uses and why: the requested group's template in the
/// resolved language, else the application's own, else the system default.
struct TemplateChoice {
    let language: String
    let body: String
    let group: String?
    let groupUsed: Bool
    let fallbackReason: String?

    /// The number a start's reads also look up among the tenant's test numbers.
    struct TestNumberKey {
        let tenantID: String
        let destination: String
    }

    /// What a choice is made from, in one statement sent without waiting (each statement a
    /// start saves is about 3% of it on PostgreSQL); with `testNumber`, that number's fixed
    /// code too. ``Reads/choice()`` makes the choice, ``Reads/testCode()`` reads the code.
    static func send(
        _ db: any DatabaseConnection, applicationID: String, channel: VerificationChannel, languages: [String], group: String?,
        testNumber: TestNumberKey? = nil
    ) throws -> Reads {
        let language = LanguageCatalog.resolve(languages, channel: channel)
        let template = "FROM otp_templates WHERE application_id = ? AND group_name = ? AND channel = ? AND language = ?"
        var parts = ["SELECT 'own' AS part, body AS value \(template)"]
        var arguments: [SQLValue] = [.text(applicationID), .text(""), .text(channel.rawValue), .text(language)]
        if let group {
            parts.append("SELECT 'group', body \(template)")
            arguments += [.text(applicationID), .text(group), .text(channel.rawValue), .text(language)]
            parts.append("SELECT 'exists', group_name FROM (SELECT group_name FROM otp_templates WHERE application_id = ? AND group_name = ? LIMIT 1) g")
            arguments += [.text(applicationID), .text(group)]
        }
        if let testNumber {
            parts.append("SELECT 'test', code FROM verification_test_numbers WHERE tenant_id = ? AND destination = ?")
            arguments += [.text(testNumber.tenantID), .text(testNumber.destination)]
        }
        let sent = try db.send(parts.joined(separator: " UNION ALL "), arguments)
        return Reads(language: language, channel: channel, group: group, sent: sent)
    }

    struct Reads {
        let language: String
        let channel: VerificationChannel
        let group: String?
        /// Rows of `part` (`own`, the application's own template in the language; `group`,
        /// the requested group's; `exists`, whether that group has any template; `test`, the
        /// number's fixed code) and `value`.
        let sent: SentStatement

        private func value(_ part: String) throws -> String? {
            try sent.rows().first { try $0.get("part", as: String.self) == part }?.get("value")
        }

        /// The number's fixed code, when it is one of the tenant's test numbers.
        func testCode() throws -> String? { try value("test") }

        func choice() throws -> TemplateChoice {
            let fallback = try value("own") ?? DefaultTemplates.template(for: language, channel: channel)
            guard let group else {
                return TemplateChoice(language: language, body: fallback, group: nil, groupUsed: false, fallbackReason: nil)
            }
            guard try value("exists") != nil else { throw VerificationFailure(.templateGroupNotFound) }
            if let body = try value("group") {
                return TemplateChoice(language: language, body: body, group: group, groupUsed: true, fallbackReason: nil)
            }
            return TemplateChoice(language: language, body: fallback, group: group, groupUsed: false, fallbackReason: "language_missing")
        }
    }
}
