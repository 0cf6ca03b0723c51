import Foundation
import GatehouseCrypto
import GatehouseFormats

/// Short-lived signed links to a run's files, for the tenant's worker:
/// `/api/workflows/files/v1/:runId/:index?expires=…&signature=…`, where the signature is
/// base64url(HMAC-SHA256(worker secret, "file.<runId>.<index>.<expires>")).
package enum WorkflowFileLinks {
    package static let lifetime: TimeInterval = 15 * 60

    package static func url(base: URL, runID: String, index: Int, secret: String, now: Date) -> URL {
        let expires = Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        var components = URLComponents(url: base.appendingPathComponent("api/workflows/files/v1/\(runID)/\(index)"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "expires", value: String(expires)),
            URLQueryItem(name: "signature", value: signature(runID: runID, index: index, expires: expires, secret: secret)),
        ]
        return components.url!
    }

    package static func signature(runID: String, index: Int, expires: Int64, secret: String) -> String {
        Base64URL.encode(HMAC.sha256(key: Array(secret.utf8), message: Array("file.\(runID).\(index).\(expires)".utf8)))
    }

    /// Whether a link is genuine and still valid.
    package static func verify(runID: String, index: Int, expires: String?, signature: String?, secret: String, now: Date) -> Bool {
        guard let expires = expires.flatMap({ Int64($0) }), let signature, Double(expires) >= now.timeIntervalSince1970 else { return false }
        return constantTimeEquals(Array(signature.utf8), Array(Self.signature(runID: runID, index: index, expires: expires, secret: secret).utf8))
    }
}
