import Foundation
import GatehouseCore

/// What the customer's backend said about a start (§14); `unusable` says what went wrong, for
/// the log and the operator (the wire keeps DIDWW's one slug, `denied_invalid_callback_response`).
enum CallbackDecision: Equatable { case allow, deny, unusable(String) }

extension VerificationEngine {
    /// Asks the application's callback URL whether to send a code: one signed POST, no
    /// retries; anything but a 2xx JSON `allow`/`deny` within the limits is unusable.
    func callback(url: String, app: OTPApplication, id: String, valid: ValidStart) async -> CallbackDecision {
        guard let target = URL(string: url), let key = RequestSigner.key(fromSecret: app.secret) else {
            return .unusable("the callback URL or the application's secret cannot be used")
        }
        var data: [String: String] = ["id": id, "destination": valid.destination, "delivery_method": valid.channel.rawValue]
        if let custom = valid.custom { data["custom"] = custom }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(CallbackBody(event: "verification_request", data: data)) else {
            return .unusable("the request could not be encoded")
        }
        let timestamp = String(Int64(now.timeIntervalSince1970))
        let signature = RequestSigner.sign(
            key: key, method: "POST", body: Array(body), contentType: "application/json", timestamp: timestamp,
            path: Self.signingPath(of: url))
        var request = OutboundRequest(url: target)
        request.httpMethod = "POST"
        request.httpBody = body
        request.timeoutInterval = settings.callbackTimeout
        request.connectTimeout = settings.callbackTimeout
        request.lowSpeedSeconds = settings.callbackTimeout
        request.maxResponseBytes = 8192
        request.target = .callback
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Application \(app.appKey):\(signature)", forHTTPHeaderField: "Authorization")
        request.setValue(timestamp, forHTTPHeaderField: "x-timestamp")
        let answer: Data
        do {
            let response: OutboundResponse
            (answer, response) = try await environment.http.send(request)
            guard (200..<300).contains(response.statusCode) else { return .unusable("it answered HTTP \(response.statusCode), not a 2xx") }
        } catch let error as OutboundError where error.code == .timedOut {
            return .unusable("it did not answer within \(Int(settings.callbackTimeout)) s")
        } catch let error as OutboundError where error.code == .tooLarge {
            return .unusable("its answer is larger than 8 KB")
        } catch let error as OutboundError {
            return .unusable("it could not be reached (\(Self.reachability(error)))")
        } catch {
            return .unusable("it could not be reached")
        }
        guard answer.count <= 8192 else { return .unusable("its answer is larger than 8 KB") }
        guard let json = try? JSONSerialization.jsonObject(with: answer) as? [String: Any], let action = json["action"] as? String else {
            return .unusable(#"its answer is not a JSON object with "action": "allow" or "deny""#)
        }
        switch action {
        case "allow": return .allow
        case "deny": return .deny
        default: return .unusable(#"its "action" is neither "allow" nor "deny""#)
        }
    }

    /// Why a URL could not be reached, in words an operator acts on (never the URL's query).
    static func reachability(_ error: OutboundError) -> String {
        switch error.code {
        case .hostNotFound: "its host name does not resolve"
        case .connectionRefused: "the connection was refused"
        case .connectionLost: "the connection failed"
        case .tls: "its TLS certificate was not accepted"
        case .badURL: "the URL is not usable"
        case .destinationRefused: "its address is not one the server may call"
        case .invalidResponse: "its answer is not HTTP the server can read"
        case .timedOut, .tooLarge, .unknown: "network error"
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
