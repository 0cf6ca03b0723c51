import Foundation
import GatehouseCore
import GatehouseFormats

/// One provider API call with its timeout and retries, shared by every adapter.
///
/// Each attempt builds its request afresh (a Vonage token is minted per attempt) and hands the
/// answer to the adapter's interpreter, which returns the result or throws a `DeliveryError`
/// saying whether the failure is retryable. Transport failures are retryable. Every error
/// that leaves has the adapter's secrets scrubbed out of its text, whatever a provider echoed.
struct ProviderExchange: Sendable {
    /// The provider's name as errors show it (`Twilio`, `Vonage SMS`).
    let name: String
    let http: any OutboundHTTP
    let clock: any Clock
    let timeout: TimeInterval
    let retry: DeliveryRetryPolicy
    let secrets: [ProviderSecret]

    func perform<T>(
        _ makeRequest: () throws -> OutboundRequest, interpret: (Data, OutboundResponse) throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            let failure: DeliveryError
            var retryAfter: TimeInterval?
            var request = try makeRequest()
            // The attempt's whole deadline, connect and answer included; a provider answering a
            // wrong credential with `401` and `WWW-Authenticate` ends it like any other answer.
            request.timeoutInterval = timeout
            request.connectTimeout = min(timeout, 10)
            request.lowSpeedSeconds = timeout
            request.target = .provider
            do {
                let (data, response) = try await http.send(request)
                do {
                    return try interpret(data, response)
                } catch let error as DeliveryError {
                    failure = error
                    retryAfter = Self.retryAfter(response.value(forHTTPHeaderField: "Retry-After"), now: clock.now)
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failure = DeliveryError("\(name) could not be reached: \(Self.describe(transport: error))", retryable: true)
            }
            guard failure.isRetryable, attempt < retry.attempts else {
                let suffix = attempt > 1 ? " (after \(attempt) attempts)" : ""
                throw scrubbed(DeliveryError(failure.description + suffix, retryable: failure.isRetryable))
            }
            try await retry.sleep(retry.backoff(afterAttempt: attempt, retryAfter: retryAfter))
            attempt += 1
        }
    }

    /// A POST of `fields` as `application/x-www-form-urlencoded`, percent-encoded so a `+` in
    /// an E.164 number arrives as `+`, not as a space.
    static func formPost(_ url: URL, _ fields: [(String, String)]) -> OutboundRequest {
        var request = OutboundRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(PercentEncoding.form(fields).utf8)
        return request
    }

    /// `path` (already percent-encoded) after `base`, whose own path a deployment may use as a prefix.
    static func endpoint(_ base: URL, _ path: String) throws -> URL {
        var root = base.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        guard let url = URL(string: root + path) else { throw DeliveryError("provider base URL \(base) cannot take a path") }
        return url
    }

    /// Whether an HTTP status means "try again later": server errors, 408 and 429.
    static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 429
    }

    /// `Retry-After` as delta-seconds or an HTTP-date (RFC 9110 §10.2.3); nil when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) { return Double(value) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// A transport failure in words, from its code only: adapters keep request details out of
    /// error messages.
    static func describe(transport error: any Error) -> String {
        guard let error = error as? OutboundError else { return "transport error (\(type(of: error)))" }
        return error.description
    }

    /// `error` with every secret replaced by `<redacted>`.
    func scrubbed(_ error: DeliveryError) -> DeliveryError {
        var text = error.description
        for secret in secrets where !secret.value.isEmpty {
            text = text.replacingOccurrences(of: secret.value, with: "<redacted>")
        }
        return DeliveryError(text, retryable: error.isRetryable)
    }

    /// A provider's error text, shortened and on one line, for an error message.
    static func excerpt(_ text: String?, limit: Int = 200) -> String? {
        guard let text else { return nil }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}
