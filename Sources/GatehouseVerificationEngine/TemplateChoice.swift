import GatehouseDatabase

/// Which template a verification uses and why: the requested group's template in the
/// resolved language, else the application's own, else the system default.
struct TemplateChoice {
    let language: String
    let body: String
    let group: String?
    let groupUsed: Bool
    let fallbackReason: String?

    static func resolve(
        _ db: any DatabaseConnection, applicationID: String, channel: VerificationChannel, languages: [String], group: String?
    ) throws -> TemplateChoice {
        try send(db, applicationID: applicationID, channel: channel, languages: languages, group: group).choice()
    }

    /// The queries a choice is made from, sent without waiting (one round trip with whatever
    /// waits next on PostgreSQL); ``Reads/choice()`` makes it.
    static func send(
        _ db: any DatabaseConnection, applicationID: String, channel: VerificationChannel, languages: [String], group: String?
    ) throws -> Reads {
        let language = LanguageCatalog.resolve(languages, channel: channel)
        func template(_ groupName: String) throws -> SentStatement {
            try db.send(
                "SELECT body FROM otp_templates WHERE application_id = ? AND group_name = ? AND channel = ? AND language = ?",
                applicationID, groupName, channel.rawValue, language)
        }
        let own = try template("")
        guard let group else { return Reads(language: language, channel: channel, own: own, group: nil) }
        let exists = try db.send("SELECT group_name FROM otp_templates WHERE application_id = ? AND group_name = ? LIMIT 1", applicationID, group)
        return Reads(language: language, channel: channel, own: own, group: (group, exists, try template(group)))
    }

    struct Reads {
        let language: String
        let channel: VerificationChannel
        /// The application's own template in the language.
        let own: SentStatement
        /// The requested group: whether it exists, and its template in the language.
        let group: (name: String, exists: SentStatement, template: SentStatement)?

        func choice() throws -> TemplateChoice {
            let fallback = try own.rows().first?.get("body", as: String.self) ?? DefaultTemplates.template(for: language, channel: channel)
            guard let group else {
                return TemplateChoice(language: language, body: fallback, group: nil, groupUsed: false, fallbackReason: nil)
            }
            guard try !group.exists.rows().isEmpty else { throw VerificationFailure(.templateGroupNotFound) }
            if let body: String = try group.template.rows().first?.get("body") {
                return TemplateChoice(language: language, body: body, group: group.name, groupUsed: true, fallbackReason: nil)
            }
            return TemplateChoice(language: language, body: fallback, group: group.name, groupUsed: false, fallbackReason: "language_missing")
        }
    }
}
