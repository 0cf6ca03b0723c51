/// One named, ordered schema change.
///
/// ```swift
/// static let migrations = [
///     Migration(id: "core.001_tenants") { db in
///         try db.executeScript("CREATE TABLE tenant (id TEXT PRIMARY KEY, name TEXT NOT NULL)")
///     },
/// ]
/// ```
///
/// Each engine contributes an ordered list; the server concatenates them and hands the
/// result to ``DatabaseMigrator``. A migration that has shipped is never edited: the
/// database remembers only its id, so a changed body would never run again.
public struct Migration: Sendable {
    /// A stable, unique id such as `core.001_tenants` (engine prefix, then a sequence).
    public let id: String
    /// Changes the schema inside the migration's own write transaction.
    public let apply: @Sendable (any DatabaseConnection) throws -> Void

    public init(id: String, apply: @escaping @Sendable (any DatabaseConnection) throws -> Void) {
        self.id = id
        self.apply = apply
    }
}
