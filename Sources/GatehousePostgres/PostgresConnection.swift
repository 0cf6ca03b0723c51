import CPostgres
import GatehouseDatabase

/// One libpq connection with its prepared-statement cache.
///
/// It is not thread-safe: ``PostgresDatabase`` lends it to one transaction at a time.
final class PostgresConnection: DatabaseConnection {
    /// Past this many distinct statements the cache starts over, so SQL built at run time
    /// (such as `IN (?, ?, …)` lists) cannot grow it without bound.
    static let statementCacheLimit = 256

    let dialect = SQLDialect.postgres
    private let connection: OpaquePointer
    private let schema: PostgresSchemaVersion
    private var schemaSeen: Int
    /// Server-side statement names keyed by SQL text and parameter types.
    private var statements: [String: String] = [:]
    private var statementCounter = 0

    /// Connects to `url` (a `postgres://` URI or a `key=value` string). A `readOnly` session
    /// refuses every write but in a transaction that begins `READ WRITE`.
    init(url: String, schema: PostgresSchemaVersion, readOnly: Bool = false) throws {
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
        self.schemaSeen = schema.current
        do {
            // Notices (such as "table already exists, skipping") would go to stderr on
            // every migration run. Hex bytea output is what the decoder reads, whatever
            // the server's default.
            try command("SET client_min_messages = warning")
            try command("SET bytea_output = hex")
            if readOnly { try command("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
        } catch {
            PQfinish(connection)
            throw error
        }
    }

    /// Whether the pool may lend this connection again: still connected, and not left in a
    /// transaction by a COMMIT or ROLLBACK that failed.
    var isUsable: Bool {
        PQstatus(connection) == CONNECTION_OK && PQtransactionStatus(connection) == PQTRANS_IDLE
    }

    func close() {
        PQfinish(connection)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try run(sql, arguments) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [Row] {
        try run(sql, arguments) { result in
            let columnCount = PQnfields(result)
            let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
            return (0..<PQntuples(result)).map { row in
                Row(columns: columns, values: (0..<columnCount).map {
                    PostgresValueDecoder.decode(result, row: row, column: $0)
                })
            }
        }
    }

    /// Runs `sql` with the simple query protocol, which accepts several statements at once.
    /// Scripts are how migrations change the schema, so every script counts as a change.
    func executeScript(_ sql: String) throws {
        try command(sql)
        try schemaChanged()
    }

    /// Starts a transaction with `begin`, first dropping prepared statements that a schema
    /// change may have made stale. Fails with `.connection` before any work is done when
    /// the server has gone away, which is when a retry on a fresh connection is safe.
    func begin(_ begin: String) throws {
        try refreshStatements()
        try command(begin)
    }

    /// Runs a read's `body` outside a transaction block, each statement in its own (see
    /// `PostgresDatabase.readBlocking`). `answered` tells afterwards whether any statement got
    /// an answer, so a read that failed on a connection dead before it started can move on.
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        answered = false
        try refreshStatements()
        return try body(self)
    }

    /// Whether a statement of the current read was answered by the server.
    private(set) var answered = false

    /// Drops prepared statements that a schema change may have made stale.
    private func refreshStatements() throws {
        if schemaSeen != schema.current {
            try deallocateStatements()
            schemaSeen = schema.current
        }
    }

    /// Runs `body` in the transaction `begin` opened: commits when it returns, rolls back
    /// when it or the commit throws.
    func finishTransaction<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        do {
            let value = try body(self)
            try commit()
            return value
        } catch {
            if PQstatus(connection) == CONNECTION_OK && PQtransactionStatus(connection) != PQTRANS_IDLE {
                _ = try? command("ROLLBACK")
            }
            throw error
        }
    }

    /// PostgreSQL answers COMMIT of a transaction that an earlier error aborted with a
    /// successful ROLLBACK; a caller that swallowed that error must still learn that
    /// nothing was saved.
    private func commit() throws {
        if try command("COMMIT") == "ROLLBACK" {
            throw DatabaseError(
                kind: .other, code: "25P02",
                message: "transaction was aborted by an earlier error and has been rolled back", sql: "COMMIT"
            )
        }
    }

    private func run<T>(_ sql: String, _ arguments: [SQLValue], _ read: (OpaquePointer) -> T) throws -> T {
        let (text, placeholderCount) = PostgresSQLText.numberingPlaceholders(sql)
        guard placeholderCount == arguments.count else {
            throw DatabaseError(
                kind: .other, code: "08P01",
                message: "statement expects \(placeholderCount) arguments, got \(arguments.count)", sql: sql
            )
        }
        let changesSchema = PostgresSQLText.changesSchema(text)
        let result = try PostgresParameters.with(arguments, sql: sql) { parameters -> OpaquePointer? in
            guard !changesSchema else {
                // DDL runs once; preparing it would only fill the cache.
                return PQexecParams(
                    connection, text, parameters.count, parameters.types, parameters.cValues,
                    parameters.lengths, parameters.formats, 0
                )
            }
            let name = try prepared(text, types: parameters.types, sql: sql)
            return PQexecPrepared(
                connection, name, parameters.count, parameters.cValues, parameters.lengths, parameters.formats, 0
            )
        }
        defer { PQclear(result) }
        try PostgresSQLState.check(result, connection: connection, sql: sql, arguments: arguments)
        answered = true
        if changesSchema { try schemaChanged() }
        return read(result!)
    }

    /// The name of a server-side prepared statement for `text`, preparing it on first use.
    private func prepared(_ text: String, types: [Oid], sql: String) throws -> String {
        let key = types.map(String.init).joined(separator: ",") + "|" + text
        if let name = statements[key] { return name }
        if statements.count >= Self.statementCacheLimit { try deallocateStatements() }
        statementCounter += 1
        let name = "gatehouse_\(statementCounter)"
        let result = PQprepare(connection, name, text, Int32(types.count), types)
        defer { PQclear(result) }
        try PostgresSQLState.check(result, connection: connection, sql: sql, arguments: [])
        statements[key] = name
        return name
    }

    private func schemaChanged() throws {
        schema.bump()
        try deallocateStatements()
        schemaSeen = schema.current
    }

    private func deallocateStatements() throws {
        guard !statements.isEmpty else { return }
        statements.removeAll()
        try command("DEALLOCATE ALL")
    }

    /// Runs argument-free SQL with the simple query protocol and returns its command tag.
    @discardableResult
    private func command(_ sql: String) throws -> String {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try PostgresSQLState.check(result, connection: connection, sql: sql, arguments: [])
        return String(cString: PQcmdStatus(result!))
    }
}
