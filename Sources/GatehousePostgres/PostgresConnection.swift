import CPostgres
import GatehouseDatabase

/// One libpq connection with its prepared-statement cache.
///
/// Statements go to the server in pipeline mode (see `PostgresConnection+Pipeline.swift`):
/// what a transaction sends without waiting (its `BEGIN`, the statements it ``send(_:_:)``s)
/// travels with the next statement that waits for its answer, so a transaction costs a
/// round trip per statement it waits on, plus its `COMMIT`.
///
/// It is not thread-safe: ``PostgresDatabase`` lends it to one transaction at a time.
final class PostgresConnection: DatabaseConnection {
    /// A prepared statement's identity: its text and its parameters' types.
    struct PreparedKey: Hashable {
        let text: String
        let types: [Oid]
    }

    /// Past this many distinct statements the cache starts over, so SQL built at run time
    /// (such as `IN (?, ?, …)` lists) cannot grow it without bound.
    static let statementCacheLimit = 256

    let dialect = SQLDialect.postgres
    let connection: OpaquePointer
    private let schema: PostgresSchemaVersion
    let roundTrips: PostgresRoundTrips
    private var schemaSeen: Int
    /// Server-side statement names keyed by SQL text and parameter types.
    var statements: [PreparedKey: String] = [:]
    /// Each SQL text as PostgreSQL takes it, by the text Gatehouse wrote: the same statements
    /// run on every request, and rewriting their placeholders was a tenth of a start's CPU.
    private var translations: [String: PostgresSQLText.Translation] = [:]
    private var statementCounter = 0
    /// What was sent in the open pipeline and not yet answered, in order.
    var unread: [Unread] = []
    /// The command tag of the last transaction-control statement answered (`COMMIT` answers
    /// `ROLLBACK` when an earlier error had aborted the transaction).
    var controlTag = ""
    /// Set when the conversation with the server lost its thread (an answer missing or out of
    /// order): the pool must not lend the connection again.
    var broken = false
    /// Whether a statement of the current read or transaction was answered by the server.
    var answered = false
    /// Whether the current transaction's `COMMIT` was queued: from then on, a connection
    /// that fails unanswered may have committed (the whole transaction can travel in one
    /// round trip), so the work must not run again.
    var commitQueued = false
    /// What the current transaction runs once it commits.
    let commitHooks = CommitHooks()

    /// Whether the current read or transaction certainly did nothing on the server: nothing
    /// was answered and no `COMMIT` left. Only such work may move to a fresh connection.
    var certainlyUndone: Bool { !answered && !commitQueued }

    /// Connects to `url` (a `postgres://` URI or a `key=value` string). A `readOnly` session
    /// refuses every write but in a transaction that begins `READ WRITE`.
    init(url: String, schema: PostgresSchemaVersion, roundTrips: PostgresRoundTrips = PostgresRoundTrips(), readOnly: Bool = false) throws {
        guard let connection = PQconnectdb(url) else {
            throw DatabaseError(kind: .connection, code: "08001", message: "cannot allocate a libpq connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PostgresSQLState.lastError(connection)
            PQfinish(connection)
            throw DatabaseError(kind: .connection, code: "08001", message: message)
        }
        self.connection = connection
        self.schema = schema
        self.roundTrips = roundTrips
        self.schemaSeen = schema.current
        do {
            // Notices (such as "table already exists, skipping") would go to stderr on
            // every migration run. Hex bytea output is what the decoder reads, whatever
            // the server's default.
            try command("SET client_min_messages = warning")
            try command("SET bytea_output = hex")
            if readOnly { try command("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
            // A pipeline's statements are sent without blocking, so a large batch can never
            // wait on a server that waits for it to read (PQexec still blocks as before).
            guard PQsetnonblocking(connection, 1) == 0 else {
                throw DatabaseError(kind: .connection, code: "08000", message: PostgresSQLState.lastError(connection))
            }
        } catch {
            PQfinish(connection)
            throw error
        }
    }

    /// Whether the pool may lend this connection again: still connected, not left in a
    /// transaction by a COMMIT or ROLLBACK that failed, and nothing left unanswered.
    var isUsable: Bool {
        !broken && unread.isEmpty && PQstatus(connection) == CONNECTION_OK && PQtransactionStatus(connection) == PQTRANS_IDLE
    }

    func close() {
        PQfinish(connection)
    }

    func afterCommit(_ work: @escaping () -> Void) {
        commitHooks.add(work)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try send(sql, arguments).changes()
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [Row] {
        try send(sql, arguments).rows()
    }

    /// Runs `sql` with the simple query protocol, which accepts several statements at once.
    /// Scripts are how migrations change the schema, so every script counts as a change.
    func executeScript(_ sql: String) throws {
        // The simple protocol has no place in a pipeline: what was sent goes first.
        try settle()
        try command(sql)
        try schemaChanged()
    }

    /// Runs `body` in a transaction opened by `begin`: commits when it returns, rolls back when
    /// it or the commit throws. `BEGIN` goes with the first statement, first dropping prepared
    /// statements that a schema change may have made stale. `certainlyUndone` tells
    /// afterwards whether the server did nothing of it, so that a transaction that failed on
    /// a connection dead before it started can move on.
    func transaction<T>(begin: String, _ body: (any DatabaseConnection) throws -> T) throws -> T {
        (answered, commitQueued) = (false, false)
        commitHooks.discard()
        do {
            // `DEALLOCATE` goes after `BEGIN`: sent before, it would take the implicit
            // transaction's snapshot, and `READ WRITE` must be set before any query.
            try sendControl(begin)
            try refreshStatements()
            let value = try body(self)
            commitQueued = true
            try sendControl("COMMIT")
            try settle()
            // PostgreSQL answers COMMIT of a transaction that an earlier error aborted with a
            // successful ROLLBACK; a caller that swallowed that error must still learn that
            // nothing was saved.
            if controlTag == "ROLLBACK" {
                throw DatabaseError(
                    kind: .other, code: "25P02",
                    message: "transaction was aborted by an earlier error and has been rolled back", sql: "COMMIT"
                )
            }
            commitHooks.run()
            return value
        } catch {
            commitHooks.discard()
            abandon()
            if !broken, PQstatus(connection) == CONNECTION_OK, PQtransactionStatus(connection) != PQTRANS_IDLE {
                _ = try? command("ROLLBACK")
            }
            throw error
        }
    }

    /// Runs a read's `body` outside a transaction block, each statement in its own (see
    /// `PostgresDatabase.readBlocking`); statements sent together share the implicit
    /// transaction of their round trip. `certainlyUndone` as for ``transaction(begin:_:)``.
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        (answered, commitQueued) = (false, false)
        commitHooks.discard()
        do {
            try refreshStatements()
            let value = try body(self)
            try settle()
            commitHooks.run()
            return value
        } catch {
            commitHooks.discard()
            abandon()
            throw error
        }
    }

    /// Drops prepared statements that a schema change may have made stale.
    private func refreshStatements() throws {
        if schemaSeen != schema.current {
            try deallocateStatements()
            schemaSeen = schema.current
        }
    }

    /// The name of a server-side prepared statement for `text`, preparing it on first use
    /// (the preparation goes in the pipeline, ahead of the statement that uses it).
    func prepared(_ text: String, types: [Oid], sql: String) throws -> String {
        let key = PreparedKey(text: text, types: types)
        if let name = statements[key] { return name }
        if statements.count >= Self.statementCacheLimit { try deallocateStatements() }
        statementCounter += 1
        let name = "gatehouse_\(statementCounter)"
        try sendPreparation(name: name, text: text, types: types, key: key, sql: sql)
        statements[key] = name
        return name
    }

    /// `sql` with its placeholders numbered, from this connection's memo.
    func translated(_ sql: String) -> PostgresSQLText.Translation {
        if let known = translations[sql] { return known }
        // Bounded as the statements are: SQL built at run time must not grow it without end.
        if translations.count >= Self.statementCacheLimit { translations.removeAll(keepingCapacity: true) }
        let translation = PostgresSQLText.translation(sql)
        translations[sql] = translation
        return translation
    }

    func schemaChanged() throws {
        schema.bump()
        try deallocateStatements()
        schemaSeen = schema.current
    }

    private func deallocateStatements() throws {
        guard !statements.isEmpty else { return }
        statements.removeAll()
        try sendControl("DEALLOCATE ALL")
    }

    /// Runs argument-free SQL with the simple query protocol, outside any pipeline, and
    /// returns its command tag.
    @discardableResult
    func command(_ sql: String) throws -> String {
        roundTrips.add()
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try PostgresSQLState.check(result, connection: connection, sql: sql, arguments: [])
        return String(cString: PQcmdStatus(result!))
    }
}
