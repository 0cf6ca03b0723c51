/// How a verification code reaches the user; the raw value is the wire `delivery_method`.
public enum VerificationChannel: String, CaseIterable, Sendable {
    /// A text message carrying the code.
    case sms
    /// A phone call that reads the code aloud.
    case callout
    /// An email carrying the code; only Gatehouse's own sign-in uses it, never the DIDWW API.
    case email

    /// A `delivery_method` of the DIDWW API: `sms` or `callout`, nothing else.
    public init?(deliveryMethod: String) {
        guard let channel = VerificationChannel(rawValue: deliveryMethod), channel != .email else { return nil }
        self = channel
    }
}
