/// What is wrong with one value or the files of one input, as data; `sentence` is how the
/// server's dialects and the SDK's form both word it, naming the input by its label.
public struct WorkflowInputProblem: Equatable, Sendable {
    /// The input's label, as the user sees it.
    public var label: String
    /// The rule the value breaks.
    public var kind: Kind

    public enum Kind: Equatable, Sendable {
        case required
        case notANumber
        case below(Double)
        case above(Double)
        case notTrueOrFalse
        case unchecked
        case notAnOption
        case sendAsFile
        case notText
        case shorterThan(Int)
        case longerThan(Int)
        case notAWebAddress
        case notAnEmailAddress
        case notInFormat
        case takesNoFiles
        case tooManyFiles(Int)
        case moreThanOneFile
        /// A file's name, content or size is outside the input's `fileOptions`.
        case outsideFileOptions(WorkflowInput.FileOptions)
    }

    public init(_ label: String, _ kind: Kind) {
        self.label = label
        self.kind = kind
    }

    /// "Document must be a .pdf or .docx file of at most 10 MB".
    public var sentence: String {
        let format = WorkflowInputRules.format
        return switch kind {
        case .required: "\(label) is required"
        case .notANumber: "\(label) must be a number"
        case .below(let min): "\(label) must be at least \(format(min))"
        case .above(let max): "\(label) must be at most \(format(max))"
        case .notTrueOrFalse: "\(label) must be true or false"
        case .unchecked: "\(label) must be checked"
        case .notAnOption: "\(label) must be one of its options"
        case .sendAsFile: "\(label) must be sent as a file"
        case .notText: "\(label) must be text"
        case .shorterThan(let min): "\(label) must be at least \(min) characters"
        case .longerThan(let max): "\(label) must be at most \(max) characters"
        case .notAWebAddress: "\(label) must be a web address starting with http:// or https://"
        case .notAnEmailAddress: "\(label) must be an email address"
        case .notInFormat: "\(label) is not in the expected format"
        case .takesNoFiles: "\(label) cannot take files"
        case .tooManyFiles(let most): "\(label) takes at most \(most) files"
        case .moreThanOneFile: "\(label) takes one file"
        case .outsideFileOptions(let options): WorkflowInputRules.limitMessage(label, options)
        }
    }
}

/// What makes a definition's inputs contradict themselves, as data; `sentence` words it for
/// the operator who saves the definition.
public enum WorkflowInputsProblem: Equatable, Sendable {
    case keyMalformed(String)
    case keyUsedTwice(String)
    case keyReserved(String)
    case labelLength(key: String)
    case unknownType(key: String, type: String)
    case rule(key: String, Rule)
    /// The file inputs together may take more than the server's upload limit.
    case uploadTooLarge(total: Int64, limit: Int64)

    /// A validation or option rule of one input that contradicts its type or itself.
    public enum Rule: Equatable, Sendable {
        case fileOptionsMissing
        case acceptMalformed
        case maxSizeOutOfRange
        case fileOptionsOnFileOnly
        case optionsMissing
        case optionValuesRepeat
        case optionsOnSelectOnly
        case textRulesOnTextOnly
        case numberRulesOnNumberOnly
        case minLengthNegative
        case minLengthAboveMaxLength
        case minAboveMax
        case patternInvalid
        case patternNestsQuantifiers
    }

    public var sentence: String {
        switch self {
        case .keyMalformed(let key): "input key \"\(key)\" must be 1 to 64 letters, digits, _ or -"
        case .keyUsedTwice(let key): "input key \(key) is used twice"
        case .keyReserved(let key): "input key \(key) is reserved"
        case .labelLength(let key): "input \(key) needs a label of 1 to 200 characters"
        case .unknownType(let key, let type): "input \(key) has unknown type \(type)"
        case .rule(let key, let rule): "input \(key): \(rule.sentence)"
        case .uploadTooLarge(let total, let limit):
            "the file inputs together may take \(total) bytes, above the server's upload limit of \(limit)"
        }
    }
}

extension WorkflowInputsProblem.Rule {
    var sentence: String {
        switch self {
        case .fileOptionsMissing: "a file input needs fileOptions"
        case .acceptMalformed: "fileOptions.accept must list extensions (.pdf) or media types (application/pdf)"
        case .maxSizeOutOfRange: "fileOptions.maxSizeMb must be above 0 and at most 1000000"
        case .fileOptionsOnFileOnly: "only a file input takes fileOptions"
        case .optionsMissing: "a select input needs options"
        case .optionValuesRepeat: "a select input's option values must differ"
        case .optionsOnSelectOnly: "only a select input takes options"
        case .textRulesOnTextOnly: "minLength, maxLength and pattern apply to text inputs only"
        case .numberRulesOnNumberOnly: "min and max apply to number inputs only"
        case .minLengthNegative: "minLength must not be negative"
        case .minLengthAboveMaxLength: "minLength is above maxLength"
        case .minAboveMax: "min is above max"
        case .patternInvalid: "pattern is not a valid regular expression"
        case .patternNestsQuantifiers:
            "pattern repeats a group that itself repeats, such as (a+)+, which can take exponential time to match"
        }
    }
}
