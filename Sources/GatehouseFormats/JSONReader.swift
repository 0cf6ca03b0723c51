import Foundation

/// Why a JSON text was refused by `JSONReader`.
public enum JSONReadError: Error, Equatable, Sendable {
    /// Not JSON (RFC 8259): the byte offset where reading stopped.
    case malformed(offset: Int)
    /// Objects and arrays nested deeper than the limit: the offset of the container that
    /// went past it, where reading stopped.
    case tooDeep(offset: Int)
    /// One object names a member twice (RFC 7493 §2.3, RFC 7515 §4, RFC 7519 §4): first-wins
    /// and last-wins readers would see two different messages. Names compare as Swift strings
    /// do, by canonical equivalence (`"\u00e9"` and `"e\u0301"` are one name), because that is
    /// how `JSONDecoder` and every `[String: …]` would merge them.
    case duplicateName(String)
    /// A string holds a control character (C0 but tab, line feed and carriage return; DEL;
    /// C1). No field of any API means one, and PostgreSQL refuses NUL in text.
    case controlCharacter
    /// A number too large for a `Double`.
    case numberOutOfRange
}

/// A single-pass JSON reader whose cost is linear in the input.
///
/// Foundation's readers do not fit the edge of a server: `JSONSerialization` and decoding
/// `JSONValue` through `JSONDecoder` cost super-linear time on deep nesting (measured: a 1 MiB
/// body of nested arrays takes seconds), neither has a depth limit below 512, and neither
/// notices a member named twice. This reader checks all of that, and can build a `JSONValue`.
public enum JSONReader {
    /// The nesting depth the server accepts by default; no API of ours nests half as deep.
    public static let defaultMaxDepth = 32

    /// Checks `bytes` without building anything.
    public static func validate(_ bytes: Data, maxDepth: Int = defaultMaxDepth) throws(JSONReadError) {
        try read(bytes, maxDepth: maxDepth, build: false)
    }

    /// Reads `bytes` into a value.
    public static func parse(_ bytes: Data, maxDepth: Int = defaultMaxDepth) throws(JSONReadError) -> JSONValue {
        try read(bytes, maxDepth: maxDepth, build: true)
    }

    @discardableResult
    private static func read(_ bytes: Data, maxDepth: Int, build: Bool) throws(JSONReadError) -> JSONValue {
        let result: Result<JSONValue, JSONReadError> = bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth, build: build)
            return Result { () throws(JSONReadError) in try scanner.document() }
        }
        return try result.get()
    }
}

extension JSONValue {
    /// Reads a JSON text with `JSONReader`'s limits (linear time, bounded depth, no
    /// duplicate names, no control characters).
    public init(parsing bytes: Data, maxDepth: Int = JSONReader.defaultMaxDepth) throws(JSONReadError) {
        self = try JSONReader.parse(bytes, maxDepth: maxDepth)
    }
}
