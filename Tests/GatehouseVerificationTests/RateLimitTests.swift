import Foundation
import Testing
@testable import GatehouseVerification

/// Every 429 arrives as `unexpectedStatus(code: 429, items:)` with `Retry-After` on every item.
@Suite struct RateLimitTests {
    private func error(status: Int = 429, items: [(String, String)], retryAfter: String?) async -> APIError? {
        let headers = retryAfter.map { ["Retry-After": $0] } ?? [:]
        let (client, _) = TestSupport.client(status: status, json: Fixtures.errorBody(items), headers: headers)
        do {
            try await client.start(destination: "+15551234567", method: .sms)
            return nil
        } catch {
            return error as? APIError
        }
    }

    @Test(arguments: [
        ("destination_in_cooldown", APIErrorCode.destinationInCooldown, "30"),
        ("rate_limit_per_ip", .rateLimitPerIP, "60"),
        ("rate_limit_failed_auth", .rateLimitFailedAuth, "900"),
        ("rate_limit_per_account", .rateLimitPerAccount, "1"),
        ("rate_limit_public_per_account", .rateLimitPublicPerAccount, "120"),
        ("volume_limit_reached", .volumeLimitReached, "259200"),
    ])
    func eachLimitCodeCarriesRetryAfter(slug: String, code: APIErrorCode, header: String) async {
        let error = await error(items: [(slug, "limit")], retryAfter: header)
        #expect(error == .unexpectedStatus(code: 429, items: [.init(code: slug, detail: "limit", retryAfter: TimeInterval(header))]))
        guard case .unexpectedStatus(_, let items)? = error else { return }
        #expect(items.first?.known == code)
        #expect(items.first?.retryAfter == TimeInterval(Int(header)!))
    }

    @Test func retryAfterIsAttachedToEveryItem() async {
        let error = await error(items: [("rate_limit_per_ip", "a"), ("rate_limit_per_account", "b")], retryAfter: "42")
        #expect(error == .unexpectedStatus(code: 429, items: [
            .init(code: "rate_limit_per_ip", detail: "a", retryAfter: 42),
            .init(code: "rate_limit_per_account", detail: "b", retryAfter: 42),
        ]))
    }

    @Test func retryAfterIsAttachedForAnyStatus() async {
        let error = await error(status: 422, items: [("code_invalid", "code is invalid")], retryAfter: "5")
        #expect(error == .validationFailed([.init(code: "code_invalid", detail: "code is invalid", retryAfter: 5)]))
    }

    @Test func missingHeaderGivesNil() async {
        let error = await error(items: [("destination_in_cooldown", "d")], retryAfter: nil)
        #expect(error == .unexpectedStatus(code: 429, items: [.init(code: "destination_in_cooldown", detail: "d")]))
    }

    @Test(arguments: [
        ("120", 120.0), (" 120 ", 120), ("\t7\t", 7), ("0", 0), ("0042", 42), ("4294967296", 4_294_967_296),
    ])
    func usableRetryAfterValues(header: String, seconds: Double) {
        #expect(ResponseDecoder.retryAfterSeconds(header) == seconds)
    }

    @Test(arguments: [
        "", "   ", "-1", "+5", "1.5", "1e3", "12a", "Wed, 21 Oct 2026 07:28:00 GMT", "12345678901234567890",
        "9223372036854775808", "\u{0661}\u{0662}", "1 2",
    ])
    func unusableRetryAfterValuesGiveNil(header: String) {
        #expect(ResponseDecoder.retryAfterSeconds(header) == nil)
    }

    @Test func retryAfterHeaderNameIsCaseInsensitive() async {
        let (client, _) = TestSupport.client(
            status: 429, json: Fixtures.errorBody([("rate_limit_per_ip", "x")]), headers: ["retry-after": "9"])
        await #expect(throws: APIError.unexpectedStatus(code: 429, items: [.init(code: "rate_limit_per_ip", detail: "x", retryAfter: 9)])) {
            try await client.start(destination: "+15551234567", method: .sms)
        }
    }
}
