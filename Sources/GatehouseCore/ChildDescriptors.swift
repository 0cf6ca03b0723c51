import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a child started with `posix_spawn` inherits: its three standard descriptors and
/// nothing else. Close-on-exec is up to every library that opens a descriptor, and some set it
/// only after `socket()` returns (libpq) or not at all, so a child spawned meanwhile on another
/// thread would hold a database connection, a server's socket or another child's pipe open
/// for as long as it lives.
package enum ChildDescriptors {
    package typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time: Swift's
    /// Glibc module is built without `_GNU_SOURCE`, so the header hides it. On an older libc the
    /// child keeps relying on close-on-exec alone.
    package static let addCloseFrom: AddCloseFrom? = {
        #if canImport(Glibc)
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
        #else
        nil
        #endif
    }()

    /// Closes every descriptor from 3 up in the child. Add it last: the actions before it may
    /// still `dup2` from a descriptor it closes.
    package static func closeAllButStandard(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom { _ = addCloseFrom(&actions, 3) }
    }
}
