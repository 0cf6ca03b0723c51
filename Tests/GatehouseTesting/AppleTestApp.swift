import Foundation

/// The app the App Store tests sign for, and a minimal transaction payload of it: shared by the
/// commerce engine's tests and the App Store Server API's, which runs against a live stand-in.
public enum AppleTestApp {
    public static let bundleId = "com.example.gatehouse"
    public static let appAppleId: Int64 = 1_234_567_890

    /// Now in whole milliseconds, as Apple writes `signedDate`.
    public static func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// A minimal transaction payload; `overrides` replace or add fields (NSNull removes one).
    public static func transaction(_ overrides: [String: Any] = [:]) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": "2000000111111111", "originalTransactionId": "2000000000000001",
            "productId": "com.example.gatehouse.pro", "bundleId": bundleId, "environment": "Sandbox",
            "signedDate": nowMilliseconds(),
        ]
        for (key, value) in overrides {
            payload[key] = value is NSNull ? nil : value
        }
        return payload
    }
}
