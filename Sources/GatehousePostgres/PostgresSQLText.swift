/// Lexical work on SQL text before it reaches PostgreSQL.
///
/// Gatehouse SQL uses SQLite's `?` placeholders everywhere; PostgreSQL wants `$1, $2, …`.
/// The rewrite must leave alone a `?` that is data or a name rather than a placeholder, so
/// it skips string literals (`'…'`, `E'…'`, `$tag$…$tag$`), quoted identifiers (`"…"`) and
/// comments (`-- …`, nested `/* … */`).
/// See https://www.postgresql.org/docs/current/sql-syntax-lexical.html.
enum PostgresSQLText {
    /// What sending a statement needs to know of its text.
    struct Translation {
        /// The text with `$1`, `$2`, … for its placeholders.
        let text: String
        let placeholderCount: Int
        /// Whether it is DDL (see ``changesSchema(_:)``).
        let changesSchema: Bool
    }

    static func translation(_ sql: String) -> Translation {
        let (text, count) = numberingPlaceholders(sql)
        return Translation(text: text, placeholderCount: count, changesSchema: changesSchema(text))
    }

    /// Returns `sql` with each placeholder `?` replaced by `$1`, `$2`, … and how many there were.
    static func numberingPlaceholders(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else { return (sql, 0) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") {
                count += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(count).utf8)
                index += 1
                continue
            }
            let end = skipQuotedOrComment(bytes, at: index)
            output.append(contentsOf: bytes[index..<end])
            index = end
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    /// Whether `sql` changes the schema (`CREATE`, `ALTER`, `DROP`…), which invalidates the
    /// plans that prepared statements on every connection have cached.
    static func changesSchema(_ sql: String) -> Bool {
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "(") || (0x09...0x0d).contains(byte) {
                index += 1
            } else if (byte, next) == (UInt8(ascii: "-"), UInt8(ascii: "-"))
                || (byte, next) == (UInt8(ascii: "/"), UInt8(ascii: "*")) {
                index = skipQuotedOrComment(bytes, at: index)
            } else {
                break
            }
        }
        let word = bytes[index...].prefix(while: isIdentifierByte)
        return ["CREATE", "ALTER", "DROP", "COMMENT"].contains(String(decoding: word, as: UTF8.self).uppercased())
    }

    /// The index just past the literal, quoted identifier or comment starting at `index`,
    /// or `index + 1` when none starts there.
    private static func skipQuotedOrComment(_ bytes: [UInt8], at index: Int) -> Int {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch byte {
        case UInt8(ascii: "'"):
            // E'…' strings let a backslash escape the closing quote; plain ones do not.
            let previous = index > 0 ? bytes[index - 1] : 0
            let escapes = (previous == UInt8(ascii: "E") || previous == UInt8(ascii: "e"))
                && (index < 2 || !isIdentifierByte(bytes[index - 2]))
            return skipQuoted(bytes, from: index + 1, quote: UInt8(ascii: "'"), backslashEscapes: escapes)
        case UInt8(ascii: "\""):
            return skipQuoted(bytes, from: index + 1, quote: UInt8(ascii: "\""), backslashEscapes: false)
        case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
            return bytes[index...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            return skipBlockComment(bytes, from: index + 2)
        case UInt8(ascii: "$"):
            return skipDollarQuoted(bytes, at: index)
        default:
            return index + 1
        }
    }

    /// A doubled quote inside the literal is an escaped quote; scanning it as a close and a
    /// reopen gives the same end, so only backslashes need care.
    private static func skipQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
        var index = start
        while index < bytes.count {
            if backslashEscapes && bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == quote { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// PostgreSQL block comments nest, unlike C's.
    private static func skipBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 1
        var index = start
        while index < bytes.count {
            let pair = (bytes[index], index + 1 < bytes.count ? bytes[index + 1] : 0)
            if pair == (UInt8(ascii: "/"), UInt8(ascii: "*")) {
                depth += 1
                index += 2
            } else if pair == (UInt8(ascii: "*"), UInt8(ascii: "/")) {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// `$tag$ … $tag$` (tag possibly empty); a `$` that starts no such quote, such as `$1`,
    /// is an ordinary byte.
    private static func skipDollarQuoted(_ bytes: [UInt8], at index: Int) -> Int {
        if index > 0 && isIdentifierByte(bytes[index - 1]) { return index + 1 }
        var tagEnd = index + 1
        while tagEnd < bytes.count, isIdentifierByte(bytes[tagEnd]), !isDigit(bytes[index + 1]) {
            tagEnd += 1
        }
        guard tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$") else { return index + 1 }
        let delimiter = Array(bytes[index...tagEnd])
        var search = tagEnd + 1
        while search + delimiter.count <= bytes.count {
            if bytes[search] == UInt8(ascii: "$") && Array(bytes[search..<(search + delimiter.count)]) == delimiter {
                return search + delimiter.count
            }
            search += 1
        }
        return bytes.count
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
