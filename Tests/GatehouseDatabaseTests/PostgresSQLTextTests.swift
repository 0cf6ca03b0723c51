@testable import GatehousePostgres
import Testing

/// The `?` to `$n` rewrite touches placeholders only.
@Suite struct PostgresSQLTextTests {
    @Test(arguments: [
        ("SELECT ? + ?", "SELECT $1 + $2", 2),
        ("SELECT '?', ?", "SELECT '?', $1", 1),
        ("SELECT 'it''s ?' || ?", "SELECT 'it''s ?' || $1", 1),
        ("SELECT E'\\'?' || ?", "SELECT E'\\'?' || $1", 1),
        ("SELECT \"a?\" FROM t WHERE x = ?", "SELECT \"a?\" FROM t WHERE x = $1", 1),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2),
        ("SELECT /* a /* nested? */ still? */ ?", "SELECT /* a /* nested? */ still? */ $1", 1),
        ("SELECT $$ ? $$, $tag$ '?' $tag$, ?", "SELECT $$ ? $$, $tag$ '?' $tag$, $1", 1),
        ("SELECT $1", "SELECT $1", 0),
        ("SELECT 'naïve ✓' , ?", "SELECT 'naïve ✓' , $1", 1),
        ("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0),
    ])
    func numbersPlaceholdersOutsideLiterals(_ input: String, _ expected: String, _ count: Int) {
        let (sql, found) = PostgresSQLText.numberingPlaceholders(input)
        #expect(sql == expected)
        #expect(found == count)
    }

    @Test func recognisesSchemaChanges() {
        #expect(PostgresSQLText.changesSchema("CREATE TABLE t (id TEXT)"))
        #expect(PostgresSQLText.changesSchema("  -- note\n /* x */ alter table t add column y TEXT"))
        #expect(PostgresSQLText.changesSchema("DROP INDEX i"))
        #expect(!PostgresSQLText.changesSchema("SELECT 'CREATE'"))
        #expect(!PostgresSQLText.changesSchema("INSERT INTO created (id) VALUES ($1)"))
        #expect(!PostgresSQLText.changesSchema("(SELECT 1)"))
    }
}
