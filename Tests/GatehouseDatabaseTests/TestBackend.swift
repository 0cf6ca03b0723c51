import Foundation
import GatehouseDatabase
import GatehousePostgres
import GatehouseSQLite
import Testing

/// A database driver the conformance suite runs on: SQLite always, PostgreSQL when
/// `GATEHOUSE_TEST_POSTGRES_URL` is set.
enum TestBackend: Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres(url: String)

    static let all: [TestBackend] = [.sqlite] + postgresOnly
    static let postgresOnly: [TestBackend] =
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_POSTGRES_URL"].map { [.postgres(url: $0)] } ?? []

    var testDescription: String {
        switch self {
        case .sqlite: return "SQLite"
        case .postgres: return "PostgreSQL"
        }
    }

    /// A fresh, empty database that no other test sees: a temporary SQLite file, or a
    /// PostgreSQL schema of its own (so tests run in parallel on one shared server).
    func makeStore(poolSize: Int = 8) throws -> TestStore {
        switch self {
        case .sqlite:
            let db = try SQLiteDatabase.temporary()
            return TestStore(db: db, openAnother: { try SQLiteDatabase(path: db.path) }, admin: nil, cleanup: {})
        case .postgres(let url):
            let schema = "gh_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let admin = try PostgresDatabase(url: url, poolSize: 2)
            try admin.writeBlocking { try $0.executeScript("CREATE SCHEMA \(schema)") }
            // search_path puts every unqualified table (gatehouse_migrations included) in
            // the test's schema; application_name lets a test find its own backends.
            let scoped = url + (url.contains("?") ? "&" : "?")
                + "options=-csearch_path%3D\(schema)&application_name=\(schema)"
            let db = try PostgresDatabase(url: scoped, poolSize: poolSize)
            return TestStore(
                db: db, openAnother: { try PostgresDatabase(url: scoped, poolSize: poolSize) },
                admin: TestStore.Admin(db: admin, applicationName: schema),
                cleanup: {
                    try? admin.writeBlocking { try $0.executeScript("DROP SCHEMA \(schema) CASCADE") }
                    admin.close()
                }
            )
        }
    }
}

/// One test's database plus what the test needs around it.
final class TestStore: @unchecked Sendable {
    /// A separate connection to the same PostgreSQL server, outside the test's pool.
    struct Admin {
        let db: PostgresDatabase
        /// The `application_name` of every connection the test's databases open.
        let applicationName: String
    }

    let db: any Database
    let admin: Admin?
    private let openAnotherHandle: () throws -> any Database
    private let cleanup: () -> Void
    private let lock = NSLock()
    private var others: [any Database] = []

    init(db: any Database, openAnother: @escaping () throws -> any Database, admin: Admin?, cleanup: @escaping () -> Void) {
        self.db = db
        self.openAnotherHandle = openAnother
        self.admin = admin
        self.cleanup = cleanup
    }

    /// A second, independent handle on the same database, as another process would open.
    func openAnother() throws -> any Database {
        let other = try openAnotherHandle()
        lock.lock()
        others.append(other)
        lock.unlock()
        return other
    }

    func close() {
        lock.lock()
        let others = self.others
        lock.unlock()
        others.forEach { $0.close() }
        db.close()
        cleanup()
    }
}

/// Table DDL that reads the same on both drivers.
extension SQLDialect {
    func createTable(_ name: String, _ columns: String...) -> String {
        "CREATE TABLE \(name) (\(columns.joined(separator: ", ")))"
            .replacingOccurrences(of: "{bigint}", with: bigint)
            .replacingOccurrences(of: "{blob}", with: blob)
            .replacingOccurrences(of: "{boolean}", with: boolean)
            .replacingOccurrences(of: "{double}", with: double)
    }
}

/// Runs `body` and returns the `DatabaseError` it throws, recording an issue otherwise.
func databaseError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> DatabaseError? {
    do {
        _ = try body()
        Issue.record("expected a DatabaseError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
