import Foundation
import GatehouseFormats

/// The rules of a workflow's inputs, shared by the server (which decides) and the SDK's form
/// model (which tells the user first), so that both give the same answers in the same words.
/// Every message names the input by its own `label` (seed 000 §08).
public enum WorkflowInputRules {
    /// The input types a definition may use.
    public static let types: Set<String> = ["text", "textarea", "number", "select", "checkbox", "url", "email", "file"]
    /// Files one `multiple` input may take.
    public static let maxFilesPerInput = 5
    /// Longest text value a pattern is tried on; a longer one fails it, which bounds what a
    /// backtracking pattern can cost.
    public static let maxPatternSubject = 4096
    static let bytesPerMegabyte = 1_048_576.0

    /// What is wrong with `value` for a non-file `input`, or `nil` when it passes.
    public static func problem(_ input: WorkflowInput, value: JSONValue?) -> WorkflowInputProblem? {
        let problem = { (kind: WorkflowInputProblem.Kind) in WorkflowInputProblem(input.label, kind) }
        let rules = input.validation ?? .init()
        let required = rules.required ?? false
        guard let value, value != .null, value != .string("") else { return required ? problem(.required) : nil }
        switch input.type {
        case "number":
            guard let number = number(value) else { return problem(.notANumber) }
            if let min = rules.min, number < min { return problem(.below(min)) }
            if let max = rules.max, number > max { return problem(.above(max)) }
            return nil
        case "checkbox":
            guard let checked = value.bool else { return problem(.notTrueOrFalse) }
            return required && !checked ? problem(.unchecked) : nil
        case "select":
            guard let text = value.string, (input.options ?? []).contains(where: { $0.value == text }) else {
                return problem(.notAnOption)
            }
            return nil
        case "file":
            return problem(.sendAsFile)
        default:
            guard let text = value.string else { return problem(.notText) }
            return textProblem(input, text: text, rules: rules)
        }
    }

    private static func textProblem(_ input: WorkflowInput, text: String, rules: WorkflowInput.Validation) -> WorkflowInputProblem? {
        let problem = { (kind: WorkflowInputProblem.Kind) in WorkflowInputProblem(input.label, kind) }
        let length = text.count
        if let min = rules.minLength, length < min { return problem(.shorterThan(min)) }
        if let max = rules.maxLength, length > max { return problem(.longerThan(max)) }
        if input.type == "url", !isWebAddress(text) { return problem(.notAWebAddress) }
        if input.type == "email", !isEmailAddress(text) { return problem(.notAnEmailAddress) }
        if let pattern = rules.pattern {
            guard text.utf16.count <= maxPatternSubject, let regex = try? anchored(pattern),
                regex.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
            else { return problem(.notInFormat) }
        }
        return nil
    }

    /// A file as it arrived: its name, its size and, on the server, the types its first bytes
    /// show (`nil` where content was not looked at, as in the SDK before sending).
    public struct SubmittedFile: Sendable, Equatable {
        /// The file's name as sent.
        public var filename: String
        /// Its size in bytes.
        public var size: Int64
        /// Extensions its content matches (`.pdf`, `.docx`, `.txt`, …), or `nil` when unchecked.
        public var contentTypes: Set<String>?

        /// A file.
        public init(filename: String, size: Int64, contentTypes: Set<String>? = nil) {
            self.filename = filename
            self.size = size
            self.contentTypes = contentTypes
        }
    }

    /// What is wrong with the files sent for a `file` input, or `nil` when they pass.
    public static func fileProblem(_ input: WorkflowInput, files: [SubmittedFile]) -> WorkflowInputProblem? {
        let problem = { (kind: WorkflowInputProblem.Kind) in WorkflowInputProblem(input.label, kind) }
        guard let options = input.fileOptions else { return problem(.takesNoFiles) }
        if files.isEmpty { return (input.validation?.required ?? false) ? problem(.required) : nil }
        if files.count > (options.multiple ? maxFilesPerInput : 1) {
            return problem(options.multiple ? .tooManyFiles(maxFilesPerInput) : .moreThanOneFile)
        }
        let accepted = acceptList(options.accept)
        for file in files {
            let ext = fileExtension(file.filename)
            let nameFits = accepted.contains { accepts($0, extension: ext) }
            // The content must be what the name says: a text file named .pdf is refused. A
            // type no signature is known for is taken on its name.
            let contentFits = file.contentTypes.map { found in found.contains(ext) || (found.isEmpty && !recognisedContent.contains(ext)) } ?? true
            let sizeFits = Double(file.size) <= options.maxSizeMb * bytesPerMegabyte
            if !nameFits || !contentFits || !sizeFits { return problem(.outsideFileOptions(options)) }
        }
        return nil
    }

    /// "Document must be a .pdf or .docx file of at most 10 MB".
    public static func limitMessage(_ label: String, _ options: WorkflowInput.FileOptions) -> String {
        let names = acceptList(options.accept)
        let listed = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
        let size = format(options.maxSizeMb)
        return options.multiple
            ? "\(label) must be \(listed) files of at most \(size) MB each"
            : "\(label) must be a \(listed) file of at most \(size) MB"
    }

    /// The bytes all files of one execute may take: the sum of each file input's limit.
    public static func uploadBytes(_ inputs: [WorkflowInput]) -> Int64 {
        // In doubles, capped: a limit read from a definition never traps a conversion.
        let total = inputs.compactMap(\.fileOptions).reduce(0.0) { total, options in
            total + (options.maxSizeMb.isFinite ? max(0, options.maxSizeMb) : .greatestFiniteMagnitude) * bytesPerMegabyte
                * Double(options.multiple ? maxFilesPerInput : 1)
        }
        return total >= 9e18 ? Int64.max : Int64(total)
    }

    /// What makes a definition's inputs contradict themselves, or `nil`: checked when the
    /// definition is saved, so that no user meets it.
    public static func definitionProblem(_ inputs: [WorkflowInput], maxUploadBytes: Int64) -> WorkflowInputsProblem? {
        var keys = Set<String>()
        for input in inputs {
            let key = input.key
            guard !key.isEmpty, key.count <= 64, key.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_-".unicodeScalars.contains($0) })
            else { return .keyMalformed(key) }
            guard keys.insert(key).inserted else { return .keyUsedTwice(key) }
            guard ["id", "input"].contains(key) == false else { return .keyReserved(key) }
            guard !input.label.trimmingCharacters(in: .whitespaces).isEmpty, input.label.count <= 200 else { return .labelLength(key: key) }
            guard types.contains(input.type) else { return .unknownType(key: key, type: input.type) }
            if let rule = ruleProblem(input) { return .rule(key: key, rule) }
        }
        let total = uploadBytes(inputs)
        if total > maxUploadBytes {
            return .uploadTooLarge(total: total, limit: maxUploadBytes)
        }
        return nil
    }

    private static func ruleProblem(_ input: WorkflowInput) -> WorkflowInputsProblem.Rule? {
        let rules = input.validation ?? .init()
        let textual = ["text", "textarea", "url", "email"].contains(input.type)
        if input.type == "file" {
            guard let options = input.fileOptions else { return .fileOptionsMissing }
            let accepted = acceptList(options.accept)
            guard !accepted.isEmpty, accepted.allSatisfy({ $0.hasPrefix(".") && $0.count > 1 || $0.contains("/") }) else {
                return .acceptMalformed
            }
            guard options.maxSizeMb > 0, options.maxSizeMb <= 1_000_000 else { return .maxSizeOutOfRange }
        } else if input.fileOptions != nil {
            return .fileOptionsOnFileOnly
        }
        if input.type == "select" {
            guard let options = input.options, !options.isEmpty else { return .optionsMissing }
            guard Set(options.map(\.value)).count == options.count else { return .optionValuesRepeat }
        } else if input.options != nil {
            return .optionsOnSelectOnly
        }
        if !textual, rules.minLength != nil || rules.maxLength != nil || rules.pattern != nil {
            return .textRulesOnTextOnly
        }
        if input.type != "number", rules.min != nil || rules.max != nil { return .numberRulesOnNumberOnly }
        if let min = rules.minLength, min < 0 { return .minLengthNegative }
        if let min = rules.minLength, let max = rules.maxLength, min > max { return .minLengthAboveMaxLength }
        if let min = rules.min, let max = rules.max, min > max { return .minAboveMax }
        if let pattern = rules.pattern {
            guard pattern.count <= 500, (try? anchored(pattern)) != nil else { return .patternInvalid }
            if nestsQuantifiers(pattern) {
                return .patternNestsQuantifiers
            }
        }
        return nil
    }

    // MARK: - Pieces

    /// Whether an unbounded repeat (`*`, `+`, `{n,}`) applies to a group that holds one: the
    /// shape that makes a backtracking matcher (NSRegularExpression is one) take exponential
    /// time on an input built for it. Escapes and character classes are skipped.
    public static func nestsQuantifiers(_ pattern: String) -> Bool {
        let characters = Array(pattern)
        var groups: [Bool] = []  // per open group: whether it holds an unbounded repeat
        var index = 0
        func unboundedRepeat(at position: Int) -> Bool {
            guard position < characters.count else { return false }
            switch characters[position] {
            case "*", "+": return true
            case "{":
                var cursor = position + 1
                while cursor < characters.count, characters[cursor].isNumber { cursor += 1 }
                return cursor < characters.count && characters[cursor] == "," && cursor + 1 < characters.count && characters[cursor + 1] == "}"
            default: return false
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\": index += 1
            case "[":
                index += 1
                if index < characters.count, characters[index] == "]" { index += 1 }
                while index < characters.count, characters[index] != "]" {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
            case "(": groups.append(false)
            case ")":
                let holds = groups.popLast() ?? false
                if holds, unboundedRepeat(at: index + 1) { return true }
                if holds || unboundedRepeat(at: index + 1), !groups.isEmpty { groups[groups.count - 1] = true }
            default:
                if unboundedRepeat(at: index), !groups.isEmpty { groups[groups.count - 1] = true }
            }
            index += 1
        }
        return false
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number.double.isFinite ? number.double : nil
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// `10` not `10.0`; `2.5` as it is.
    public static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    static func anchored(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [])
    }

    static func isWebAddress(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return !text.contains(where: \.isWhitespace)
    }

    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
            return false
        }
        return !text.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    /// `.pdf,.docx` → `[".pdf", ".docx"]`, lower-cased.
    public static func acceptList(_ accept: String) -> [String] {
        accept.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The lower-cased extension of a file name, with its dot (`.pdf`), or empty.
    public static func fileExtension(_ filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return "" }
        return filename[dot...].lowercased()
    }

    /// Whether one accept rule (an extension or a media type) takes an extension.
    static func accepts(_ rule: String, extension ext: String) -> Bool {
        if rule.hasPrefix(".") { return rule == ext }
        guard let types = mediaTypes[ext] else { return false }
        if rule.hasSuffix("/*") { return types.contains { $0.hasPrefix(rule.dropLast()) } }
        return types.contains(rule)
    }

    /// The media type a file of this name is sent as (`application/octet-stream` when unknown).
    public static func mediaType(of filename: String) -> String {
        mediaTypes[fileExtension(filename)]?.first ?? "application/octet-stream"
    }

    /// Extensions whose content the server recognises (and so checks).
    public static let recognisedContent: Set<String> = [
        ".pdf", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".docx", ".xlsx", ".pptx", ".zip", ".txt", ".md", ".csv", ".json",
    ]

    /// The media types of the extensions Gatehouse recognises, for accept rules written as types.
    static let mediaTypes: [String: [String]] = [
        ".pdf": ["application/pdf"],
        ".docx": ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
        ".xlsx": ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        ".pptx": ["application/vnd.openxmlformats-officedocument.presentationml.presentation"],
        ".txt": ["text/plain"], ".md": ["text/markdown", "text/plain"], ".csv": ["text/csv", "text/plain"],
        ".json": ["application/json"],
        ".png": ["image/png"], ".jpg": ["image/jpeg"], ".jpeg": ["image/jpeg"], ".gif": ["image/gif"], ".webp": ["image/webp"],
        ".zip": ["application/zip"],
    ]
}
