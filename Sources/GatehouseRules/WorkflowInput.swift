import Foundation

/// One input of a workflow's form, exactly as seed 000 §05 shows it; keys that do not
/// apply are left out.
public struct WorkflowInput: Codable, Sendable, Equatable {
    /// The JSON keys, which the server reads by name.
    public enum CodingKeys: String, CodingKey, CaseIterable { case key, label, type, placeholder, validation, options, fileOptions }
    /// The name the value is sent under (and a file part's name).
    public var key: String
    /// What the form shows; error messages name the input by it.
    public var label: String
    /// `text`, `textarea`, `number`, `select`, `checkbox`, `url`, `email` or `file`.
    public var type: String
    /// A hint shown in an empty field.
    public var placeholder: String?
    /// The rules a value must pass.
    public var validation: Validation?
    /// The choices of a `select`.
    public var options: [Option]?
    /// What a `file` input takes.
    public var fileOptions: FileOptions?

    /// An input.
    public init(
        key: String, label: String, type: String, placeholder: String? = nil, validation: Validation? = nil,
        options: [Option]? = nil, fileOptions: FileOptions? = nil
    ) {
        self.key = key
        self.label = label
        self.type = type
        self.placeholder = placeholder
        self.validation = validation
        self.options = options
        self.fileOptions = fileOptions
    }

    /// `{required, minLength, maxLength, pattern, min, max}`, each optional.
    public struct Validation: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case required, minLength, maxLength, pattern, min, max }
        /// A value must be given (a checkbox must be checked).
        public var required: Bool?
        /// Fewest characters of a text value.
        public var minLength: Int?
        /// Most characters of a text value.
        public var maxLength: Int?
        /// A regular expression the whole text value must match.
        public var pattern: String?
        /// Smallest number.
        public var min: Double?
        /// Largest number.
        public var max: Double?

        /// Rules.
        public init(
            required: Bool? = nil, minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil, min: Double? = nil,
            max: Double? = nil
        ) {
            self.required = required
            self.minLength = minLength
            self.maxLength = maxLength
            self.pattern = pattern
            self.min = min
            self.max = max
        }
    }

    /// A choice of a `select`: the value sent and the text shown.
    public struct Option: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case value, label }
        /// What is sent.
        public var value: String
        /// What is shown.
        public var label: String

        /// A choice.
        public init(value: String, label: String) {
            self.value = value
            self.label = label
        }
    }

    /// `{accept, maxSizeMb, multiple}` of a `file` input.
    public struct FileOptions: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case accept, maxSizeMb, multiple }
        /// Comma-separated extensions (`.pdf`) or media types (`application/pdf`, `image/*`).
        public var accept: String
        /// Largest file, in megabytes of 1,048,576 bytes.
        public var maxSizeMb: Double
        /// Whether several files may be sent (each within `maxSizeMb`).
        public var multiple: Bool

        /// File options.
        public init(accept: String, maxSizeMb: Double, multiple: Bool = false) {
            self.accept = accept
            self.maxSizeMb = maxSizeMb
            self.multiple = multiple
        }
    }
}
