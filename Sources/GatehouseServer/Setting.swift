import Foundation

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

    /// A number where the empty string means "not set".
    static func optionalNumber<T: LosslessStringConvertible>(_ name: String, _ path: Path<T?>, example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard !value.isEmpty else { return settings[keyPath: path] = nil }
                guard let parsed = T(value) else { throw SettingsError("\(name) must be a number, got \(value)") }
                settings[keyPath: path] = parsed
            },
            read: { $0[keyPath: path].map { String(describing: $0) } ?? "" })
    }

    /// A finite number above zero.
    static func positive<T: LosslessStringConvertible & BinaryFloatingPoint>(_ name: String, _ path: Path<T>, example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard let parsed = T(value), parsed.isFinite, parsed > 0 else { throw SettingsError("\(name) must be a number above 0, got \(value)") }
                settings[keyPath: path] = parsed
            },
            read: { String(describing: $0[keyPath: path]) })
    }

    /// A whole number above zero.
    static func positive<T: LosslessStringConvertible & BinaryInteger>(_ name: String, _ path: Path<T>, example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard let parsed = T(value), parsed > 0 else { throw SettingsError("\(name) must be a whole number above 0, got \(value)") }
                settings[keyPath: path] = parsed
            },
            read: { String(describing: $0[keyPath: path]) })
    }

    /// One of a fixed list of words, each standing for a value.
    static func choice<T: Equatable>(_ name: String, _ path: Path<T>, _ words: [(String, T)], example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                guard let match = words.first(where: { $0.0 == value }) else {
                    throw SettingsError("\(name) must be \(words.map(\.0).joined(separator: ", "))")
                }
                settings[keyPath: path] = match.1
            },
            read: { settings in words.first { $0.1 == settings[keyPath: path] }?.0 ?? "" })
    }

    /// An absolute http(s) URL; empty means "not set".
    static func url(_ name: String, _ path: Path<URL?>, example: String) -> Setting {
        Setting(
            name: name, example: example,
            apply: { settings, value in
                let raw = value.trimmingCharacters(in: .whitespaces)
                guard !raw.isEmpty else { return settings[keyPath: path] = nil }
                guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
                else { throw SettingsError("\(name) must be an absolute http or https URL, got \(value)") }
                settings[keyPath: path] = url
            },
            read: { $0[keyPath: path]?.absoluteString ?? "" })
    }
}
