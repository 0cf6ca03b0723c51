import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseManagedAPIsEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one proxied call: the caller's method, headers and body to the planned URL, with the
/// caller's own credentials and hop-by-hop headers left out and the definition's credential
/// added; the upstream's status, headers and body come back as they came, the body streamed.
struct ManagedAPIProxy: Sendable {
    struct Limits: Sendable {
        var maxResponseBytes = 10 << 20
        var timeout: TimeInterval = 30
    }

    let engine: ManagedAPIsEngine
    let session: UpstreamSession
    let limits: Limits
    let metrics: HTTPMetrics
    let clock: @Sendable () -> Date

    /// Never forwarded upstream: hop-by-hop (RFC 9110 §7.6.1), the caller's credentials and
    /// cookies for Gatehouse (its session, its app key), and what URLSession sets itself.
    static let droppedRequestHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding",
        "upgrade", "host", "content-length", "authorization", "cookie", "accept-encoding", "expect", "forwarded", "x-forwarded-for",
        "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "x-api-key", "x-app-version", "x-device-name",
    ]
    /// Never passed back: hop-by-hop, cookies for the upstream's own origin (Gatehouse's origin
    /// is shared by every user), and framing the server sets for the body it sends.
    static let droppedResponseHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length", "content-encoding", "set-cookie", "set-cookie2",
    ]

    func send(_ request: Request, tenantID: String, name: String, rawPath: String) async throws -> Response {
        let started = clock()
        // Series are per definition: a name no definition has is counted under one label, so
        // that made-up names cannot grow the metrics.
        var label = "\(tenantID)/(unknown)"
        do {
            var plan = try await engine.plan(tenantID: tenantID, name: name, rawPath: rawPath, query: request.query)
            label = "\(tenantID)/\(name)"
            var answer = try await session.open(upstreamRequest(request, plan: plan), maxBytes: limits.maxResponseBytes)
            // A server-held client-credentials token the upstream refuses is retired, and the
            // call is sent once more with a new one.
            if answer.response.statusCode == 401, let spent = plan.serverToken {
                answer.cancel()
                plan = try await engine.plan(tenantID: tenantID, name: name, rawPath: rawPath, query: request.query, retiring: spent)
                answer = try await session.open(upstreamRequest(request, plan: plan), maxBytes: limits.maxResponseBytes)
            }
            metrics.record(method: request.method, route: label, status: answer.response.statusCode, seconds: clock().timeIntervalSince(started))
            return Self.response(answer)
        } catch {
            if (error as? ManagedAPIError)?.code != .notFound, (error as? ManagedAPIError)?.code != .notProxied { label = "\(tenantID)/\(name)" }
            let failure = Self.failure(error)
            metrics.record(method: request.method, route: label, status: failure.status, seconds: clock().timeIntervalSince(started))
            throw failure.error
        }
    }

    func upstreamRequest(_ request: Request, plan: ProxyPlan) -> URLRequest {
        var upstream = URLRequest(url: plan.url)
        upstream.httpMethod = request.method.rawValue
        upstream.timeoutInterval = limits.timeout
        let connectionNamed = Set((request.headers["Connection"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let credentialNames = Set(plan.credentialHeaders.map { $0.name.lowercased() })
        for (name, value) in request.headers {
            let lower = name.lowercased()
            if Self.droppedRequestHeaders.contains(lower) || connectionNamed.contains(lower) || credentialNames.contains(lower) { continue }
            upstream.addValue(value, forHTTPHeaderField: name)
        }
        for (name, value) in plan.credentialHeaders { upstream.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { upstream.httpBody = request.body }
        return upstream
    }

    static func response(_ answer: UpstreamSession.Answer) -> Response {
        var headers = HTTPHeaders()
        let connectionNamed = Set(((answer.response.value(forHTTPHeaderField: "Connection")) ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        })
        for (key, value) in answer.response.allHeaderFields {
            guard let name = key as? String, let value = value as? String else { continue }
            let lower = name.lowercased()
            // An upstream must not pass for Gatehouse: its refusals' marker is Gatehouse's alone.
            if droppedResponseHeaders.contains(lower) || connectionNamed.contains(lower) || lower.hasPrefix("x-gatehouse-") { continue }
            headers.set(name, value)
        }
        let body = answer.body
        let cancel = answer.cancel
        return Response(status: answer.response.statusCode, headers: headers, body: .stream { writer in
            do {
                for try await chunk in body { try await writer.write(chunk) }
            } catch {
                // The client left, or the upstream broke off or ran past the limit: the
                // connection is cut, so a truncated body never reads as a whole one.
                cancel()
                throw error
            }
        })
    }

    /// How a call that got no upstream answer is refused, and the status it counts as.
    static func failure(_ error: any Error) -> (error: any Error, status: Int) {
        switch error {
        case let error as ManagedAPIError:
            return (error, DatacoveError(mapping: error)?.status ?? 500)
        case is UpstreamSession.TooLarge:
            return (DatacoveError(status: 502, code: "UPSTREAM_TOO_LARGE", message: "The API's answer is larger than this server passes back."), 502)
        case let error as URLError where error.code == .timedOut:
            return (DatacoveError(status: 504, code: "UPSTREAM_TIMEOUT", message: "The API did not answer in time."), 504)
        case is URLError, is CancellationError:
            return (DatacoveError(status: 502, code: "UPSTREAM_UNREACHABLE", message: "The API could not be reached."), 502)
        default:
            return (error, 500)
        }
    }
}
