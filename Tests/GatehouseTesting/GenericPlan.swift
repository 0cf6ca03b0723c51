import GatehouseDatabase

/// PostgreSQL's generic plan of a statement (`?` placeholders, as the engines write them),
/// inside `db`'s transaction: the plan every connection settles on after a few runs of a
/// prepared statement. Planning for a table without statistics (a new installation's, or
/// after a reset), PostgreSQL can take any index whose leading columns the statement pins
/// over the one that finds its row, and keep that plan; tests of hot statements check it.
///
/// `arguments` is the `EXECUTE` argument list as SQL literals (`'t-1', 42`).
public func genericPlan(_ db: any DatabaseConnection, of sql: String, arguments: String) throws -> String {
    var number = 0
    let numbered = sql.map { character -> String in
        guard character == "?" else { return String(character) }
        number += 1
        return "$\(number)"
    }.joined()
    _ = try db.execute("SET LOCAL plan_cache_mode = force_generic_plan", [])
    _ = try db.execute("PREPARE plan_under_test AS \(numbered)", [])
    defer { _ = try? db.execute("DEALLOCATE plan_under_test", []) }
    return try db.query("EXPLAIN EXECUTE plan_under_test(\(arguments))", []).map { try $0.get("QUERY PLAN", as: String.self) }
        .joined(separator: "\n")
}
