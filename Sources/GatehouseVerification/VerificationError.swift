/// Client-side validation failures, thrown before any network request is sent.
public enum VerificationError: Error, Sendable, Equatable {
    /// An options block (`sms:` or `callout:`) does not belong to the selected `method:`.
    case channelMismatch(expected: DeliveryMethod)
    /// A by-number call received a value containing no ASCII digits.
    case invalidNumber
}
