/// A CBOR data item (RFC 8949), as WebAuthn carries them: attestation objects and COSE keys.
///
/// Read by `CBORReader`, which takes only definite lengths (CTAP2's canonical form has no
/// other), bounds nesting, refuses a map that names a key twice and a length longer than the
/// bytes left, so reading costs time and memory in proportion to the input.
public indirect enum CBOR: Sendable, Hashable {
    case unsigned(UInt64)
    /// The integer −1 − n (major type 1).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order they were encoded.
    case map([CBORPair])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    case simple(UInt8)
    case float(Double)

    /// The integer, when it is one that fits.
    public var integer: Int64? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): return value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: return nil
        }
    }

    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var pairs: [CBORPair]? {
        if case .map(let pairs) = self { return pairs }
        return nil
    }

    /// The value of a map's integer key (COSE's labels).
    public subscript(key: Int64) -> CBOR? {
        pairs?.first { $0.key.integer == key }?.value
    }

    /// The value of a map's text key (an attestation object's `fmt`, `attStmt`, `authData`).
    public subscript(key: String) -> CBOR? {
        pairs?.first { $0.key.textString == key }?.value
    }
}

public struct CBORPair: Sendable, Hashable {
    public let key: CBOR
    public let value: CBOR

    public init(key: CBOR, value: CBOR) {
        self.key = key
        self.value = value
    }
}

/// Why bytes are not one CBOR item this reader takes.
public enum CBORError: Error, Sendable, Equatable {
    /// The input ends inside an item.
    case truncated
    /// Nested deeper than allowed.
    case tooDeep
    /// An indefinite length (or a stray break): CTAP2's canonical form has none.
    case indefiniteLength
    /// A reserved additional-information value (28–30).
    case malformed
    /// A text string that is not UTF-8.
    case invalidUTF8
    /// A map names one key twice.
    case duplicateKey
    /// Bytes after the item, where exactly one was expected.
    case trailingBytes
}
