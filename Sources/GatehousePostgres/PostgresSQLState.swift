import Foundation
import CPostgres
import GatehouseDatabase

/// Turns libpq results into `DatabaseError`s: every statement's result goes through
/// ``check(_:connection:sql:arguments:)``, so the SQLSTATE-to-kind mapping lives in one place.
/// See https://www.postgresql.org/docs/current/errcodes-appendix.html.
enum PostgresSQLState {
    static func kind(for state: String) -> DatabaseError.Kind {
        switch state {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "23502", "23514": return .constraintViolation
        case "40001", "40P01", "55P03": return .busy
        // admin_shutdown and friends: the server ended this session (pg_terminate_backend,
        // a restart), so the connection is gone like any 08xxx failure.
        case "57P01", "57P02", "57P03": return .connection
        default: return state.hasPrefix("08") ? .connection : .other
        }
    }

    /// Throws unless `result` is a successful command or query result.
    ///
    /// The message is the server's primary message only: its DETAIL line quotes the values
    /// of a violated key. Text arguments are also blanked out of the message because some
    /// primary messages (invalid input syntax) quote the offending value, which may be a secret.
    static func check(_ result: OpaquePointer?, connection: OpaquePointer, sql: String, arguments: [SQLValue]) throws {
        if let error = error(result, connection: connection, sql: sql, arguments: arguments) { throw error }
    }

    /// The error `result` stands for; nil when it is a successful command or query result.
    static func error(_ result: OpaquePointer?, connection: OpaquePointer, sql: String, arguments: [SQLValue]) -> DatabaseError? {
        if let result {
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return nil }
        }
        let field = { (code: Character) -> String? in
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        // No SQLSTATE means libpq itself failed, which in practice is a lost connection.
        let lost = PQstatus(connection) != CONNECTION_OK
        let state = field("C") ?? (lost ? "08006" : "XX000")
        let message = field("M") ?? lastError(connection)
        return DatabaseError(
            kind: lost ? .connection : kind(for: state), code: state,
            message: redacting(arguments, from: message), sql: sql
        )
    }

    /// The connection's last error, for failures that produced no result.
    static func lastError(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown libpq error"
    }

    private static func redacting(_ arguments: [SQLValue], from message: String) -> String {
        arguments.reduce(message) { message, argument in
            // Short values are too likely to match ordinary words of the message.
            guard case .text(let text) = argument, text.count >= 4 else { return message }
            return message.replacingOccurrences(of: text, with: "<redacted>")
        }
    }
}
