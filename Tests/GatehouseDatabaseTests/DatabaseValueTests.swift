import Foundation
import GatehouseDatabase
import Testing

/// Every `SQLValue` case survives a write and a read unchanged on every driver.
@Suite struct DatabaseValueTests {
    private func makeValuesTable(_ store: TestStore) throws {
        try store.db.writeBlocking { conn in
            try conn.execute(conn.dialect.createTable(
                "vals", "id {bigint} PRIMARY KEY", "i {bigint}", "d {double}", "t TEXT", "b {blob}", "f {boolean}"
            ), [])
        }
    }

    private func roundTrip(_ store: TestStore, column: String, _ value: SQLValue) throws -> SQLValue {
        let id = Int64.random(in: 1...Int64.max)
        try store.db.writeBlocking { try $0.execute("INSERT INTO vals (id, \(column)) VALUES (?, ?)", [.integer(id), value]) }
        let row = try store.db.readBlocking { try $0.queryOne("SELECT \(column) FROM vals WHERE id = ?", id) }
        return try #require(row?[column])
    }

    @Test(arguments: TestBackend.all)
    func integersKeepAllSixtyFourBits(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        for value: Int64 in [.min, .max, 0, -1, (1 << 53) + 1] {
            #expect(try roundTrip(store, column: "i", .integer(value)) == .integer(value))
        }
    }

    @Test(arguments: TestBackend.all)
    func doublesRoundTripExactly(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        for value in [0.1, -1.5e300, Double.pi, 1e-300, -0.0, 123_456_789.987_654_321] {
            #expect(try roundTrip(store, column: "d", .double(value)) == .double(value))
        }
    }

    @Test(arguments: TestBackend.all)
    func textKeepsUnicodeQuotesAndEmptiness(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        for value in ["", "héllo ✓ 🚀 日本語 👩‍👩‍👧", "it's \"quoted\" ? $1 -- not a comment", String(repeating: "x", count: 100_000)] {
            #expect(try roundTrip(store, column: "t", .text(value)) == .text(value))
        }
    }

    @Test(arguments: TestBackend.all)
    func blobsKeepLengthZerosAndEmptiness(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        let cases: [[UInt8]] = [[], [0], [0, 1, 0, 255, 0, 0], Array(0...255), [UInt8](repeating: 0, count: 4096)]
        for value in cases {
            #expect(try roundTrip(store, column: "b", .blob(value)) == .blob(value))
        }
    }

    @Test(arguments: TestBackend.all)
    func booleansDecodeAsBool(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        for value in [true, false] {
            // SQLite hands booleans back as 0/1 integers; the typed getter hides that.
            let stored = try roundTrip(store, column: "f", .boolean(value))
            #expect(try Bool(sqlValue: stored) == value)
            #expect(stored == (backend.isPostgres ? .boolean(value) : .integer(value ? 1 : 0)))
        }
    }

    @Test(arguments: TestBackend.all)
    func nullStaysNullInEveryColumnType(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        for column in ["i", "d", "t", "b", "f"] {
            #expect(try roundTrip(store, column: column, .null) == .null)
        }
    }

    @Test(arguments: TestBackend.all)
    func typedArgumentsAndOptionalsDecode(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        // Whole microseconds are what the schema stores; the fraction is chosen so that a
        // driver dropping below milliseconds or rounding through Float would show.
        let when = Date(timeIntervalSince1970: 1_700_000_000.123_457)
        let missing: String? = nil
        let blob = Data([0, 42, 0])
        try store.db.writeBlocking { conn in
            try conn.execute("INSERT INTO vals (id, i, d, t, b, f) VALUES (?, ?, ?, ?, ?, ?)", 1, when, 2.5, missing, blob, true)
            try conn.execute("INSERT INTO vals (id, i, t) VALUES (?, ?, ?)", 2, Optional(7), Optional("seven"))
        }
        let rows = try store.db.readBlocking { try $0.query("SELECT id, i, d, t, b, f FROM vals ORDER BY id") }
        #expect(rows.count == 2)
        let first = try #require(rows.first)
        let readWhen = try first.get("i", as: Date.self)
        #expect(readWhen.sqlValue == .integer(1_700_000_000_123_457))
        #expect(abs(readWhen.timeIntervalSince(when)) < 0.000_001)
        #expect(try first.get("t", as: String?.self) == nil)
        #expect(try first.get("d", as: Double.self) == 2.5)
        #expect(try first.get("b", as: Data.self) == blob)
        #expect(try first.get("f", as: Bool.self) == true)
        #expect(try rows[1].get("i", as: Int?.self) == 7)
        #expect(try rows[1].get("t", as: String?.self) == "seven")
        #expect(try rows[1].get("f", as: Bool?.self) == nil)
        #expect(rows[1].columns == ["id", "i", "d", "t", "b", "f"])
    }

    @Test(arguments: TestBackend.all)
    func bareParametersComeBackAsBound(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let row = try #require(try store.db.readBlocking { conn in
            try conn.queryOne("SELECT ? AS i, ? AS d, ? AS t, ? AS b, ? AS n", Int64.min, 0.25, "ü", [UInt8](), SQLValue.null)
        })
        #expect(row.values == [.integer(.min), .double(0.25), .text("ü"), .blob([]), .null])
    }

    @Test(arguments: TestBackend.all)
    func questionMarksInLiteralsIdentifiersAndCommentsAreNotPlaceholders(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        let row = try #require(try store.db.readBlocking { conn in
            try conn.queryOne("SELECT '?' AS q, 'it''s ?' AS r, ? AS v, 1 AS \"what?\" /* ? */ -- ?\n", 5)
        })
        #expect(row["q"] == .text("?"))
        #expect(row["r"] == .text("it's ?"))
        #expect(row["v"] == .integer(5))
        #expect(row["what?"] == .integer(1))
    }

    @Test(arguments: TestBackend.all)
    func executeReportsChangedRows(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        let changed = try store.db.writeBlocking { conn -> Int in
            for id in 1...5 { try conn.execute("INSERT INTO vals (id, i) VALUES (?, ?)", id, id % 2) }
            return try conn.execute("UPDATE vals SET t = ? WHERE i = ?", "odd", 1)
        }
        #expect(changed == 3)
        let unchanged = try store.db.writeBlocking { conn in
            try [
                conn.execute("DELETE FROM vals WHERE id = ?", 99),
                conn.execute("CREATE TABLE other (id TEXT)", []),
            ]
        }
        #expect(unchanged == [0, 0])
    }

    @Test(arguments: TestBackend.all)
    func optionalFilterIdiomWorksOnBothDrivers(_ backend: TestBackend) throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try makeValuesTable(store)
        try store.db.writeBlocking { conn in
            for (id, text) in [(1, "a"), (2, "b")] { try conn.execute("INSERT INTO vals (id, t) VALUES (?, ?)", id, text) }
        }
        // A typed value needs no cast; NULL needs one on PostgreSQL to have a type at all.
        let sql = "SELECT id FROM vals WHERE (CAST(? AS TEXT) IS NULL OR t = ?) AND (? IS NULL OR id >= ?) ORDER BY id"
        let filter = { (text: String?, minimum: Int64) in
            try store.db.readBlocking { conn in
                try conn.query(sql, [text.sqlValue, text.sqlValue, .integer(minimum), .integer(minimum)])
                    .map { try $0.get("id", as: Int.self) }
            }
        }
        #expect(try filter("b", 0) == [2])
        #expect(try filter(nil, 0) == [1, 2])
        #expect(try filter(nil, 2) == [2])
    }
}

extension TestBackend {
    var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}
