import Foundation

/// Which Gatehouse server the client talks to; the SDK appends `/api/v1` to its URL.
///
/// This SDK targets a self-hosted Gatehouse server, not the vendor's hosts, so `.production`
/// and `.sandbox` resolve to ``defaultProductionURL`` and ``defaultSandboxURL``. Both start as
/// `http://127.0.0.1:8080`; set them once at app launch to point at your deployment.
public enum VerifyEnvironment: Sendable, Equatable {
    /// The production server, at ``defaultProductionURL``.
    case production
    /// The sandbox server, at ``defaultSandboxURL``.
    case sandbox
    /// Any scheme and host with an optional base path; `/api/v1` is appended after the path.
    case custom(URL)

    /// The URL `.production` resolves to when a client is created; defaults to `http://127.0.0.1:8080`.
    public static var defaultProductionURL: URL {
        get { defaults.read { $0.production } }
        set { defaults.write { $0.production = newValue } }
    }

    /// The URL `.sandbox` resolves to when a client is created; defaults to `http://127.0.0.1:8080`.
    public static var defaultSandboxURL: URL {
        get { defaults.read { $0.sandbox } }
        set { defaults.write { $0.sandbox = newValue } }
    }

    /// The base URL before `/api/v1`.
    public var baseURL: URL {
        switch self {
        case .production: return Self.defaultProductionURL
        case .sandbox: return Self.defaultSandboxURL
        case .custom(let url): return url
        }
    }

    /// The URL both defaults start from.
    static let localURL = URL(string: "http://127.0.0.1:8080")!

    private static let defaults = DefaultURLs()
}

// Safe: `values` is only read and written under `lock`.
/// The two settable default URLs behind a lock, so setting them is safe from any thread.
private final class DefaultURLs: @unchecked Sendable {
    struct Values {
        var production = VerifyEnvironment.localURL
        var sandbox = VerifyEnvironment.localURL
    }

    private let lock = NSLock()
    private var values = Values()

    func read<T>(_ body: (Values) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(values)
    }

    func write(_ body: (inout Values) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&values)
    }
}
