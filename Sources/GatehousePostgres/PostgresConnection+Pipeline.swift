import CPostgres
import Glibc
import GatehouseDatabase

/// libpq's pipeline mode: statements are queued on the connection and sent with the next
/// sync point, which ``settle()`` sets when a statement's answer is wanted; the server runs
/// them in order and answers each, so the statements a transaction does not wait for cost
/// no round trip of their own. See https://www.postgresql.org/docs/current/libpq-pipeline-mode.html.
extension PostgresConnection {
    /// One thing sent in the open pipeline, waiting for its answer.
    struct Unread {
        enum Kind {
            /// A statement's preparation, cached under `key` (dropped again if it fails).
            case preparation(key: PreparedKey)
            /// A statement, answered through `sent`.
            case statement(SentStatement)
            /// `BEGIN`, `COMMIT`, `DEALLOCATE ALL`: only their tag is kept.
            case control
        }

        let kind: Kind
        let sql: String
        let arguments: [SQLValue]
    }

    func send(_ sql: String, _ arguments: [SQLValue]) throws -> SentStatement {
        let translation = translated(sql)
        let (text, placeholderCount, changesSchema) = (translation.text, translation.placeholderCount, translation.changesSchema)
        guard placeholderCount == arguments.count else {
            throw DatabaseError(
                kind: .other, code: "08P01",
                message: "statement expects \(placeholderCount) arguments, got \(arguments.count)", sql: sql
            )
        }
        let sent = SentStatement(settle: { [unowned self] in try self.settle() })
        try enterPipeline()
        try PostgresParameters.with(arguments, sql: sql) { parameters in
            if changesSchema {
                // DDL runs once; preparing it would only fill the cache.
                try checkSent(
                    PQsendQueryParams(
                        connection, text, parameters.count, parameters.types, parameters.cValues, parameters.lengths,
                        parameters.formats, 0),
                    sql: sql)
            } else {
                let name = try prepared(text, types: parameters.types, sql: sql)
                try checkSent(
                    PQsendQueryPrepared(connection, name, parameters.count, parameters.cValues, parameters.lengths, parameters.formats, 0),
                    sql: sql)
            }
        }
        unread.append(Unread(kind: .statement(sent), sql: sql, arguments: arguments))
        if changesSchema {
            try settle()
            try schemaChanged()
        }
        return sent
    }

    /// Queues an argument-free transaction-control statement.
    func sendControl(_ sql: String) throws {
        try enterPipeline()
        try checkSent(PQsendQueryParams(connection, sql, 0, nil, nil, nil, nil, 0), sql: sql)
        unread.append(Unread(kind: .control, sql: sql, arguments: []))
    }

    func sendPreparation(name: String, text: String, types: [Oid], key: PreparedKey, sql: String) throws {
        try enterPipeline()
        try checkSent(PQsendPrepare(connection, name, text, Int32(types.count), types), sql: sql)
        unread.append(Unread(kind: .preparation(key: key), sql: sql, arguments: []))
    }

    /// Sends a sync point and reads the answer of everything sent before it, handing each
    /// statement its own; throws the first error among them (the server skipped the rest).
    func settle() throws {
        guard PQpipelineStatus(connection) != PQ_PIPELINE_OFF else { return }
        let pending = unread
        unread.removeAll()
        var firstError: DatabaseError?
        do {
            roundTrips.add()
            guard PQpipelineSync(connection) == 1 else { throw lostConnection(sql: pending.first?.sql) }
            try flush()
            // Each answer is one result followed by a null; the sync point's result ends them.
            var next = 0
            var nulls = 0
            while true {
                guard let result = try nextResult() else {
                    nulls += 1
                    guard nulls < 3, PQstatus(connection) == CONNECTION_OK else { throw lostConnection(sql: nil) }
                    continue
                }
                nulls = 0
                defer { PQclear(result) }
                if PQresultStatus(result) == PGRES_PIPELINE_SYNC { break }
                guard next < pending.count else { throw lostThread() }
                if let error = read(result, for: pending[next], after: firstError) { firstError = firstError ?? error }
                next += 1
            }
            guard next == pending.count, PQexitPipelineMode(connection) == 1 else { throw lostThread() }
        } catch let error as DatabaseError {
            // The conversation cannot go on: whatever was not answered fails with it.
            for item in pending { if case .statement(let sent) = item.kind, sent.isWaiting { sent.fail(error) } }
            if error.kind == .connection || broken { broken = true }
            throw firstError ?? error
        }
        if let firstError { throw firstError }
    }

    /// Reads what was sent but not waited for, so the connection can be used (or rolled
    /// back) again; their errors no longer matter to anyone.
    func abandon() {
        guard PQpipelineStatus(connection) != PQ_PIPELINE_OFF else { return }
        do { try settle() } catch {}
        if PQpipelineStatus(connection) != PQ_PIPELINE_OFF { broken = true }
    }

    /// Hands one item its answer; returns its error.
    private func read(_ result: OpaquePointer, for item: Unread, after earlier: DatabaseError?) -> DatabaseError? {
        let status = PQresultStatus(result)
        var error: DatabaseError?
        if status == PGRES_PIPELINE_ABORTED {
            error = earlier ?? DatabaseError(kind: .other, code: "25P02", message: "skipped after an earlier error", sql: item.sql)
        } else {
            error = PostgresSQLState.error(result, connection: connection, sql: item.sql, arguments: item.arguments)
        }
        if error == nil { answered = true }
        switch item.kind {
        case .preparation(let key):
            if error != nil { statements[key] = nil }
        case .statement(let sent):
            if let error {
                sent.fail(error)
            } else {
                sent.answer(
                    rows: status == PGRES_TUPLES_OK ? Self.rows(of: result) : [],
                    changes: Int(String(cString: PQcmdTuples(result))) ?? 0)
            }
        case .control:
            if error == nil { controlTag = String(cString: PQcmdStatus(result)) }
        }
        return error
    }

    private static func rows(of result: OpaquePointer) -> [Row] {
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        return (0..<PQntuples(result)).map { row in
            Row(columns: columns, values: (0..<columnCount).map {
                PostgresValueDecoder.decode(result, row: row, column: $0)
            })
        }
    }

    func enterPipeline() throws {
        if PQpipelineStatus(connection) != PQ_PIPELINE_OFF { return }
        guard PQenterPipelineMode(connection) == 1 else { throw lostConnection(sql: nil) }
    }

    private func checkSent(_ accepted: Int32, sql: String) throws {
        if accepted != 1 { throw lostConnection(sql: sql) }
    }

    /// The next result, reading from the socket while libpq has none complete.
    private func nextResult() throws -> OpaquePointer? {
        while PQisBusy(connection) == 1 {
            try wait(forWriting: false)
            guard PQconsumeInput(connection) == 1 else { throw lostConnection(sql: nil) }
        }
        return PQgetResult(connection)
    }

    /// Sends what libpq holds, reading the server's answers meanwhile so that neither side
    /// waits on the other.
    private func flush() throws {
        while true {
            let flushed = PQflush(connection)
            if flushed == 0 { return }
            guard flushed > 0 else { throw lostConnection(sql: nil) }
            if try wait(forWriting: true) { guard PQconsumeInput(connection) == 1 else { throw lostConnection(sql: nil) } }
        }
    }

    /// Waits until the socket can be read (or, `forWriting`, written); true when readable.
    @discardableResult
    private func wait(forWriting: Bool) throws -> Bool {
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN | (forWriting ? POLLOUT : 0)), revents: 0)
        guard descriptor.fd >= 0 else { throw lostConnection(sql: nil) }
        while poll(&descriptor, 1, -1) < 0 {
            guard errno == EINTR else { throw lostConnection(sql: nil) }
        }
        return descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }

    private func lostConnection(sql: String?) -> DatabaseError {
        let lost = PQstatus(connection) != CONNECTION_OK
        if !lost { broken = true }
        return DatabaseError(kind: .connection, code: lost ? "08006" : "08000", message: PostgresSQLState.lastError(connection), sql: sql)
    }

    private func lostThread() -> DatabaseError {
        broken = true
        return DatabaseError(kind: .connection, code: "08P01", message: "the server's answers did not match what was sent")
    }
}
