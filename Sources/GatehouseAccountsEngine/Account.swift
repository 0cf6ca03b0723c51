import Foundation
import GatehouseCore
import GatehouseDatabase

/// How a person signs in: a phone number (SMS code) or an email address.
public typealias SignInChannel = OneTimeCodeChannel

/// An account as its owner sees it (`GET users/v1/profile`).
public struct Profile: Sendable, Equatable {
    public let name: String?
    /// Digits of the E.164 number, without `+`.
    public let phone: String?
    public let email: String?
    /// ISO 3166 alpha-2 region of the phone number.
    public let country: String?
    public let timezone: String?
    /// `CREATED` until activated, then `ACTIVE`.
    public let status: String
    /// Credit balances by kind; they come from the commerce engine once it exists, and an
    /// account without purchases has none.
    public let wallet: [String: Int]

    init(row: Row, wallet: [String: Int]) throws {
        name = try row.get("name")
        phone = try row.get("phone")
        email = try row.get("email")
        country = try row.get("country")
        timezone = try row.get("timezone")
        status = try row.get("status")
        self.wallet = wallet
    }
}
