/// Receives the SDK's debug lines: `→ METHOD URL` and `← status`, already redacted.
///
/// Bodies and headers are never logged; runs of 4–15 digits (codes, phone numbers) are
/// masked before a line reaches you, while verification UUIDs stay readable.
public protocol VerificationLogger: Sendable {
    /// Called with one redacted line per request and per response.
    func log(_ message: String)
}
