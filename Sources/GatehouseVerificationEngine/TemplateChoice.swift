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
        let language = LanguageCatalog.resolve(languages, channel: channel)
        func template(_ groupName: String) throws -> String? {
            try db.queryOne(
                "SELECT body FROM otp_templates WHERE application_id = ? AND group_name = ? AND channel = ? AND language = ?",
                applicationID, groupName, channel.rawValue, language
            )?.get("body")
        }
        let fallback = try template("") ?? DefaultTemplates.template(for: language, channel: channel)
        guard let group else {
            return TemplateChoice(language: language, body: fallback, group: nil, groupUsed: false, fallbackReason: nil)
        }
        let groupExists = try db.queryOne(
            "SELECT group_name FROM otp_templates WHERE application_id = ? AND group_name = ? LIMIT 1", applicationID, group) != nil
        guard groupExists else { throw VerificationFailure(.templateGroupNotFound) }
        if let body = try template(group) {
            return TemplateChoice(language: language, body: body, group: group, groupUsed: true, fallbackReason: nil)
        }
        return TemplateChoice(language: language, body: fallback, group: group, groupUsed: false, fallbackReason: "language_missing")
    }
}
