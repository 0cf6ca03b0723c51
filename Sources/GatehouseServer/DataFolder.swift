import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#endif

/// The data folder holds what opens every tenant: the SQLite database, the development secret
/// keys and `dev-credentials.json`. The folder is 0700 and those files 0600 whatever the umask
/// (SQLite and Foundation create files as the umask allows, commonly 0644); each start checks
/// them again, since a restore, a copy or an operator's `chmod` can widen them, and tightens and
/// warns about any that group or others may use.
enum DataFolder {
    static let folderMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// The files of the data folder that must stay private, as settings place them.
    static func privateFiles(_ settings: Settings) -> [String] {
        let inFolder = ["managed-api-secret.key", "possession-secret.key", "dev-credentials.json"]
            .map { (settings.dataDir as NSString).appendingPathComponent($0) }
        return (settings.isPostgres ? [] : sqliteFiles(settings.sqlitePath)) + inFolder
    }

    /// The database and the two files SQLite makes beside it in WAL mode.
    static func sqliteFiles(_ path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// On start: makes the folder if it is missing, and tightens it and every private file that
    /// exists and is open to group or others, with a warning naming each. A database placed
    /// elsewhere (`database-url`) has its files checked, never its folder, which may be shared.
    static func secure(_ settings: Settings, logger: Logger) throws {
        if FileManager.default.fileExists(atPath: settings.dataDir) {
            tighten(settings.dataDir, to: folderMode, logger: logger)
        } else {
            try create(settings.dataDir)
        }
        for file in privateFiles(settings) { tighten(file, to: fileMode, logger: logger) }
    }

    /// Makes `path` (parents as the umask allows) and gives the folder itself exactly 0700.
    static func create(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard chmod(path, folderMode) == 0 else { throw SettingsError("cannot set the mode of \(path): \(String(cString: strerror(errno)))") }
    }

    /// Gives a file this server just made, or SQLite just made, exactly 0600, silently.
    static func restrict(_ paths: [String]) {
        for path in paths where FileManager.default.fileExists(atPath: path) { _ = chmod(path, fileMode) }
    }

    /// Makes an empty file 0600 unless one exists, so that SQLite opens it instead of making
    /// one the umask's way, and gives its WAL and SHM files the same mode (it copies the
    /// database's mode to them).
    static func precreate(_ path: String) {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, fileMode)
        if fd >= 0 { close(fd) }
    }

    private static func tighten(_ path: String, to mode: mode_t, logger: Logger) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        let was = String(info.st_mode & 0o777, radix: 8)
        if chmod(path, mode) == 0 {
            logger.warning(
                "a private file of the data folder was open to other users; tightened it",
                ["path": .plain(path), "was": .plain("0" + was), "now": .plain("0" + String(mode, radix: 8))])
        } else {
            logger.warning(
                "a private file of the data folder is open to other users and could not be tightened",
                ["path": .plain(path), "mode": .plain("0" + was), "error": .plain(String(cString: strerror(errno)))])
        }
    }
}
