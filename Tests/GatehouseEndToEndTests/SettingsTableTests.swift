import Foundation
import Testing
@testable import GatehouseServer

/// The README's configuration table is the contract: every variable and flag it lists must
/// change the setting it names, and every setting the server reads must be listed.
@Suite struct SettingsTableTests {
    /// `(variable, flag)` pairs of the README's Configuration table; a row may name several.
    static func documented() throws -> [(variable: String, flag: String)] {
        try rows().flatMap { row in zip(row.variables, row.flags).map { ($0, $1) } }
    }

    /// The README's Configuration rows: variables, flags and the default column.
    static func rows() throws -> [(variables: [String], flags: [String], defaultValue: String)] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        var rows: [([String], [String], String)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `GATEHOUSE_") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            let variables = Self.quoted(cells[0])
            let flags = Self.quoted(cells[1])
            #expect(variables.count == flags.count, "README row pairs each variable with a flag: \(line)")
            rows.append((variables, flags, cells[2]))
        }
        return rows
    }

    static func quoted(_ cell: String) -> [String] {
        cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    }

    @Test func everyDocumentedSettingIsHonouredFromTheEnvironmentAndItsFlag() throws {
        let documented = try Self.documented()
        #expect(documented.count >= 30)
        for (variable, flag) in documented {
            let setting = try #require(Settings.table.first { $0.flag == flag }, "README documents \(flag), which the server does not read")
            #expect(setting.environmentName == variable, "README pairs \(variable) with \(flag)")
            #expect(setting.read(Settings()) != setting.example, "\(setting.name)'s example must differ from its default")
            let fromEnvironment = try Settings.load(environment: [variable: setting.example], arguments: [])
            #expect(setting.read(fromEnvironment) == setting.example, "\(variable) is ignored")
            let fromFlag = try Settings.load(environment: [:], arguments: [flag, setting.example])
            #expect(setting.read(fromFlag) == setting.example, "\(flag) is ignored")
            let joined = try Settings.load(environment: [:], arguments: ["\(flag)=\(setting.example)"])
            #expect(setting.read(joined) == setting.example, "\(flag)=… is ignored")
        }
    }

    @Test func everySettingTheServerReadsIsDocumented() throws {
        let flags = Set(try Self.documented().map(\.flag))
        for setting in Settings.table {
            #expect(flags.contains(setting.flag), "\(setting.flag) is missing from README's Configuration table")
        }
        #expect(Set(Settings.table.map(\.name)).count == Settings.table.count)
    }

    /// A default written as a value must be the default the server uses; `(none)`/`(empty)`
    /// must be an unset one.
    @Test func documentedDefaultsAreTheServersDefaults() throws {
        // Worked out at start-up, and described rather than written out in the README.
        let computed: Set<String> = [
            "threads", "public-url", "appstore-api-url", "google-play-api-url", "google-token-url", "google-certs-url", "workflow-files-dir",
        ]
        for row in try Self.rows() {
            for flag in row.flags {
                let setting = try #require(Settings.table.first { $0.flag == flag })
                guard !computed.contains(setting.name) else { continue }
                let actual = setting.read(Settings())
                if row.defaultValue.hasPrefix("(") {
                    #expect(actual.isEmpty, "\(flag): README says \(row.defaultValue), the server has \(actual)")
                } else if let documented = Double(row.defaultValue), let value = Double(actual) {
                    #expect(documented == value, "\(flag): README says \(row.defaultValue), the server has \(actual)")
                } else {
                    #expect(row.defaultValue == actual, "\(flag): README says \(row.defaultValue), the server has \(actual)")
                }
            }
        }
    }

    @Test func flagsWinOverVariablesAndUnknownFlagsAreRefused() throws {
        let settings = try Settings.load(environment: ["GATEHOUSE_PORT": "9000"], arguments: ["--port", "9001"])
        #expect(settings.port == 9001)
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--no-such-setting", "1"]) }
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--port", "eighty"]) }
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--smtp-security", "ssl"]) }
        // Other tools' variables are not ours to refuse.
        #expect(try Settings.load(environment: ["GATEHOUSE_URL": "http://x"], arguments: []).port == 8080)
    }

    /// Values are typed when read, so a bad one stops the server at start instead of being
    /// ignored later.
    @Test func valuesAreParsedIntoTheirTypes() throws {
        let url = try Settings.load(environment: ["GATEHOUSE_APPSTORE_API_URL": "http://127.0.0.1:8443/apple"], arguments: [])
        #expect(url.appstoreApiURL == URL(string: "http://127.0.0.1:8443/apple"))
        #expect(try Settings.load(environment: ["GATEHOUSE_APPSTORE_API_URL": ""], arguments: []).appstoreApiURL == nil)
        #expect(throws: SettingsError.self) { try Settings.load(environment: ["GATEHOUSE_APPSTORE_API_URL": "not a url"], arguments: []) }
        #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--log-level", "loud"]) }
        #expect(try Settings.load(environment: [:], arguments: ["--log-level=warning"]).logLevel == .warning)
        #expect(try Settings.load(environment: [:], arguments: ["--smtp-security", "none"]).smtpSecurity == .none)
        #expect(try Settings.load(environment: [:], arguments: ["--access-log", "/tmp/a.log"]).accessLog == .file("/tmp/a.log"))
        // The pumping guard's numbers must be finite and above zero (a cool-off of 0 would block forever and never).
        for (flag, value) in [("pumping-cool-off-hours", "0"), ("pumping-minimum-volume", "-1"), ("pumping-spike-factor", "nan"), ("pumping-conversion-ratio", "inf")] {
            #expect(throws: SettingsError.self) { try Settings.load(environment: [:], arguments: ["--\(flag)", value]) }
        }
        #expect(try Settings.load(environment: [:], arguments: ["--pumping-conversion-ratio", "0.1"]).verification.pumping.conversionRatio == 0.1)
    }
}
