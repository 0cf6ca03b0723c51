import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseOutbound

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
    /// cookies for Gatehouse (its session, its app key), and the framing curl sets itself.
    static let droppedRequestHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding",
        "upgrade", "host", "content-length", "authorization", "cookie", "accept-encoding", "expect", "forwarded", "x-forwarded-for",
        "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "x-api-key", "x-app-version", "x-device-name",
    ]
    /// Never passed back: hop-by-hop, cookies and headers that speak for the whole origin
    /// (Gatehouse's origin is shared by every user and every API), and framing the server sets
    /// for the body it sends.
    static let droppedResponseHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length", "content-encoding", "set-cookie", "set-cookie2", "strict-transport-security", "alt-svc", "clear-site-data",
        "public-key-pins", "expect-ct", "nel", "report-to", "origin-agent-cluster",
    ]
    /// An answer's whole transfer may take four timeouts, and never less than this.
    static let minimumTransferSeconds: TimeInterval = 120
    /// More headers than this from an upstream is a broken or hostile one: 502.
    static let maxResponseHeaders = 200

    func send(_ request: Request, tenantID: String, name: String, rawPath: String) async throws -> Response {
        let started = clock()
        // Series are per definition: a name no definition has is counted under one label, so
        // that made-up names cannot grow the metrics.
        var label = "\(tenantID)/(unknown)"
        do {
            // A body on GET or HEAD has no meaning upstreams agree on (RFC 9110 §9.3.1): refused.
            if !request.body.isEmpty, request.method == .GET || request.method == .HEAD {
                throw DatacoveError(status: 400, code: "BODY_NOT_ALLOWED", message: "A \(request.method.rawValue) call cannot carry a body through the proxy.")
            }
            var plan = try await engine.plan(tenantID: tenantID, name: name, rawPath: rawPath, query: request.query)
            label = "\(tenantID)/\(name)"
            var answer = try await session.open(upstreamRequest(request, plan: plan, started: started), api: label)
            // A server-held client-credentials token the upstream refuses is retired, and the
            // call is sent once more with a new one.
            if answer.response.statusCode == 401, let spent = plan.serverToken {
                answer.cancel()
                plan = try await engine.plan(tenantID: tenantID, name: name, rawPath: rawPath, query: request.query, retiring: spent)
                answer = try await session.open(upstreamRequest(request, plan: plan, started: started), api: label)
            }
            let response = try Self.response(answer, request: request, scrubber: SecretScrubber(secrets: plan.echoedSecrets))
            metrics.record(method: request.method, route: label, status: answer.response.statusCode, seconds: clock().timeIntervalSince(started))
            return response
        } catch {
            if (error as? ManagedAPIError)?.code != .notFound, (error as? ManagedAPIError)?.code != .notProxied { label = "\(tenantID)/\(name)" }
            let failure = Self.failure(error)
            metrics.record(method: request.method, route: label, status: failure.status, seconds: clock().timeIntervalSince(started))
            throw failure.error
        }
    }

    /// The upstream call: the head due within the timeout (a silent upstream is cut by the
    /// low-speed limit), the whole transfer within four timeouts (two minutes at least), the
    /// answer at most `maxResponseBytes`, only to the kind of address the plan was vetted for.
    func upstreamRequest(_ request: Request, plan: ProxyPlan, started: Date) -> OutboundRequest {
        var upstream = OutboundRequest(url: plan.url)
        upstream.httpMethod = request.method.rawValue
        upstream.timeoutInterval = max(limits.timeout * 4, Self.minimumTransferSeconds) - clock().timeIntervalSince(started)
        upstream.connectTimeout = min(10, limits.timeout)
        upstream.lowSpeedSeconds = limits.timeout
        upstream.maxResponseBytes = limits.maxResponseBytes
        upstream.target = .proxy
        upstream.destinations = plan.definition.development ? .any : .publicOnly
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

    static func response(_ answer: UpstreamSession.Answer, request: Request, scrubber: SecretScrubber?) throws -> Response {
        let status = answer.response.statusCode
        // An interim or made-up status cannot be passed on as a final answer.
        guard (200...599).contains(status), answer.response.headerFields.count <= maxResponseHeaders else {
            answer.cancel()
            throw DatacoveError(status: 502, code: "UPSTREAM_INVALID", message: "The API's answer could not be passed on.")
        }
        var headers = HTTPHeaders()
        let connectionNamed = Set(((answer.response.value(forHTTPHeaderField: "Connection")) ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        })
        for (name, value) in answer.response.headerFields {
            let lower = name.lowercased()
            // An upstream must not pass for Gatehouse: its refusals' marker is Gatehouse's alone.
            if droppedResponseHeaders.contains(lower) || connectionNamed.contains(lower) || lower.hasPrefix("x-gatehouse-")
                || lower.hasPrefix("access-control-")
            {
                continue
            }
            headers.add(name, scrubber?.scrub(value) ?? value)
        }
        // No body may follow a HEAD, a 204 or a 304 (RFC 9110 §6.4.1).
        if request.method == .HEAD || status == 204 || status == 304 {
            answer.cancel()
            return Response(status: status, headers: headers, body: .bytes(Data()))
        }
        // An answer that ended as its head came in is sent whole, with its length.
        if let whole = answer.body.takeCompleteBody() {
            answer.cancel()
            let scrubbed = scrubber.map { $0.scrub(whole) + $0.finish() } ?? whole
            return Response(status: status, headers: headers, body: .bytes(scrubbed))
        }
        let (body, cancel) = (answer.body, answer.cancel)
        return Response(status: status, headers: headers, body: .stream { writer in
            do {
                // The next piece is read only once the device has taken the last: curl waits meanwhile.
                while let chunk = try await body.next() {
                    try await writer.write(scrubber?.scrub(chunk) ?? chunk)
                }
                if let rest = scrubber?.finish(), !rest.isEmpty { try await writer.write(rest) }
                cancel()
            } catch {
                // The client left, or the upstream broke off, ran past the limit or the time:
                // the connection is cut, so a truncated body never reads as a whole one.
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
        case is UpstreamSession.Busy:
            return (DatacoveError(status: 503, code: "PROXY_BUSY", message: "Too many managed API calls are in progress; try again shortly."), 503)
        case let error as OutboundError where error.code == .tooLarge:
            return (DatacoveError(status: 502, code: "UPSTREAM_TOO_LARGE", message: "The API's answer is larger than this server passes back."), 502)
        case let error as OutboundError where error.code == .timedOut:
            return (DatacoveError(status: 504, code: "UPSTREAM_TIMEOUT", message: "The API did not answer in time."), 504)
        case let error as OutboundError where error.code == .invalidResponse:
            return (DatacoveError(status: 502, code: "UPSTREAM_INVALID", message: "The API's answer could not be passed on."), 502)
        case is OutboundError, is CancellationError:
            return (DatacoveError(status: 502, code: "UPSTREAM_UNREACHABLE", message: "The API could not be reached."), 502)
        default:
            return (error, 500)
        }
    }
}
