extension Verification {
    /// Delivery-method-specific data of a response, keyed by the channel's block.
    ///
    /// A block for a channel this SDK does not model is never decoded: `details` is then `nil`.
    public enum Details: Sendable, Hashable {
        /// The response's `sms` block.
        case sms(SMS)
        /// The response's `callout` block.
        case callout(Callout)
    }
}
