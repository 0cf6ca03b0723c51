import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The descriptors a child sees: opens one without close-on-exec (numbered 300 or more, so it
/// cannot be mistaken for the child's own) while `listing` starts a child that prints
/// `ls /proc/self/fd`, and returns the numbers it printed. A child that inherits nothing
/// prints 0, 1, 2 and the one `ls` opens to read the folder, 3.
public func descriptorsSeenByAChild(_ listing: () async throws -> String) async throws -> Set<Int32> {
    let opened = open("/dev/null", O_RDONLY)
    // F_DUPFD sets no close-on-exec flag.
    let leaked = fcntl(opened, F_DUPFD, 300)
    close(opened)
    defer { close(leaked) }
    guard leaked >= 300, fcntl(leaked, F_GETFD) & FD_CLOEXEC == 0 else { throw TestSetupError("no descriptor without close-on-exec") }
    return Set(try await listing().split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
}
