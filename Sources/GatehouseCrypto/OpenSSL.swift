import Foundation
import COpenSSL

/// The one place OpenSSL return codes are checked and turned into `CryptoError`.
///
/// OpenSSL reports failure through a per-thread error queue; every failure path drains it so a
/// stale entry can never be blamed on a later, unrelated call on the same thread.
enum OpenSSL {
    /// Succeeds when `returnCode` is 1, OpenSSL's success value for nearly every call.
    static func check(_ returnCode: Int32, _ operation: @autoclosure () -> String) throws {
        guard returnCode == 1 else { throw failure(operation()) }
    }

    /// Unwraps a pointer an OpenSSL allocator or parser returned, or throws its error.
    static func check<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws -> T {
        guard let pointer else { throw failure(operation()) }
        return pointer
    }

    /// Builds the error for a failed call from the oldest queued reason, then clears the queue.
    static func failure(_ operation: String) -> CryptoError {
        .library(operation: operation, reason: drainErrors())
    }

    /// Returns the oldest queued error string (the root cause) and empties the queue.
    @discardableResult
    static func drainErrors() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error queued" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs an operation that can only fail if the library itself is broken (out of memory, a
    /// default-provider algorithm missing); such a process cannot do crypto, so it stops loudly.
    static func mustSucceed<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            fatalError("GatehouseCrypto: OpenSSL failed unexpectedly: \(error)")
        }
    }
}

/// Calls `body` with the bytes of `data` in one contiguous buffer, copying only when the
/// collection is not already contiguous (for example a multi-region `DispatchData`).
///
/// The buffer's base address is never nil, even when empty: several OpenSSL calls reject a NULL
/// pointer although the length is zero.
func withContiguousBytes<D: DataProtocol, R>(
    _ data: D, _ body: (UnsafeRawBufferPointer) throws -> R
) rethrows -> R {
    if data.isEmpty {
        var placeholder: UInt8 = 0
        return try withUnsafeBytes(of: &placeholder) {
            try body(UnsafeRawBufferPointer(start: $0.baseAddress, count: 0))
        }
    }
    if let result = try data.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return try Array(data).withUnsafeBytes(body)
}
