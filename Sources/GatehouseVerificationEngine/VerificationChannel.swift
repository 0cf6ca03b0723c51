/// How a verification code reaches the user; the raw value is the wire `delivery_method`.
public enum VerificationChannel: String, CaseIterable, Sendable {
    /// A text message carrying the code.
    case sms
    /// A phone call that reads the code aloud.
    case callout
}
