/// One server setting, declared once: its name gives the flag `--name` and the variable
/// `GATEHOUSE_NAME`, `apply` parses a value into `Settings`, `read` renders the current value
/// the way it is written, and `example` is a valid value other than the default (the README
/// test sets each documented setting to it, by variable and by flag, and reads it back).
struct Setting: Sendable {
    let name: String
    let example: String
    let apply: @Sendable (inout Settings, String) throws -> Void
    let read: @Sendable (Settings) -> String

    /// A sendable key path into `Settings`, so that a row can be a static constant.
    typealias Path<T> = any WritableKeyPath<Settings, T> & Sendable

    var flag: String { "--" + name }
    var environmentName: String { "GATEHOUSE_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// A text setting taken as written.
    static func text(_ name: String, _ path: Path<String>, example: String) -> Setting {
        Setting(name: name, example: example, apply: { $0[keyPath: path] = $1 }, read: { $0[keyPath: path] })
    }

    /// A text setting where the empty string means "not set".
    static func optional(_ name: String, _ path: Path<String?>, example: String) -> Setting {
        Setting(name: name, example: example, apply: { $0[keyPath: path] = $1.isEmpty ? nil : $1 }, read: { $0[keyPath: path] ?? "" })
    }

    /// A number; anything that does not parse as `T` is an error naming the setting.
    static func number<T: LosslessStringConvertible>(
        _ name: String, _ path: Path<T>, example: String
    ) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard let parsed = T(value) else { throw SettingsError("\(name) must be a number, got \(value)") }
                settings[keyPath: path] = parsed
            },
            read: { String(describing: $0[keyPath: path]) })
    }

    /// One of a fixed list of words.
    static func choice(_ name: String, _ path: Path<String>, _ allowed: [String], example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard allowed.contains(value) else { throw SettingsError("\(name) must be \(allowed.joined(separator: ", "))") }
                settings[keyPath: path] = value
            },
            read: { $0[keyPath: path] })
    }
}
