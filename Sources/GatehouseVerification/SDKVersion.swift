/// The version of this SDK, sent in the `User-Agent` header.
public enum SDKVersion {
    /// The release this module implements: the DIDWW iOS Verification SDK 1.2 surface.
    public static let current = "1.2.0"

    /// The `User-Agent` value every request carries.
    static var userAgent: String { "gatehouse-verification-swift/\(current)" }
}
