import Foundation

/// The process-wide entry point, in place of the seed's `DataSapien.getManagedApiService()`.
public enum ManagedAPIs {
    private static let holder = Holder()

    /// Makes `service` the one `getManagedApiService()` returns; call once at launch.
    public static func configure(_ service: ManagedAPIService) { holder.set(service) }

    /// The configured service; stops the app with a clear message when `configure(_:)` was never called.
    public static func getManagedApiService() -> ManagedAPIService {
        guard let service = holder.get() else {
            preconditionFailure("ManagedAPIs.getManagedApiService() was called before ManagedAPIs.configure(_:): configure the service at launch")
        }
        return service
    }

    /// Whether `configure(_:)` has been called.
    public static var isConfigured: Bool { holder.get() != nil }

    // Safe: `service` is only read and written under `lock`.
    private final class Holder: @unchecked Sendable {
        private let lock = NSLock()
        private var service: ManagedAPIService?

        func set(_ service: ManagedAPIService) { lock.withLock { self.service = service } }

        func get() -> ManagedAPIService? { lock.withLock { service } }
    }
}
