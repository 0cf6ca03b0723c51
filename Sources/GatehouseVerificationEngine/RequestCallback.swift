import Foundation
import GatehouseCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the customer's backend said about a start (§14).
enum CallbackDecision: Equatable { case allow, deny, unusable }

extension VerificationEngine {
    /// Asks the application's callback URL whether to send a code: one signed POST, no
    /// retries; anything but a 2xx JSON `allow`/`deny` within the limits is unusable.
    func callback(url: String, app: OTPApplication, id: String, valid: ValidStart) async -> CallbackDecision {
        guard let target = URL(string: url), let key = RequestSigner.key(fromSecret: app.secret) else { return .unusable }
        var data: [String: String] = ["id": id, "destination": valid.destination, "delivery_method": valid.channel.rawValue]
        if let custom = valid.custom { data["custom"] = custom }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(CallbackBody(event: "verification_request", data: data)) else { return .unusable }
        let timestamp = String(Int64(now.timeIntervalSince1970))
        let signature = RequestSigner.sign(
            key: key, method: "POST", body: Array(body), contentType: "application/json", timestamp: timestamp,
            path: Self.signingPath(of: url))
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.httpBody = body
        request.timeoutInterval = settings.callbackTimeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Application \(app.appKey):\(signature)", forHTTPHeaderField: "Authorization")
        request.setValue(timestamp, forHTTPHeaderField: "x-timestamp")
        do {
            let (answer, response) = try await environment.http.send(request)
            guard (200..<300).contains(response.statusCode), answer.count <= 8192,
                let json = try JSONSerialization.jsonObject(with: answer) as? [String: Any],
                let action = json["action"] as? String
            else { return .unusable }
            switch action {
            case "allow": return .allow
            case "deny": return .deny
            default: return .unusable
            }
        } catch {
            environment.logger.info("verification callback unusable", ["application": app.id, "error": "\(error)"])
            return .unusable
        }
    }

    /// The path of the registered URL as written: `https://h` signs as "", `https://h/` as "/".
    static func signingPath(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }), afterScheme[slash] == "/"
        else { return "" }
        let pathAndMore = afterScheme[slash...]
        let end = pathAndMore.firstIndex { $0 == "?" || $0 == "#" } ?? pathAndMore.endIndex
        return String(pathAndMore[..<end])
    }
}

private struct CallbackBody: Encodable {
    let event: String
    let data: [String: String]
}
