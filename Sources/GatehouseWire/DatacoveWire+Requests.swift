extension DatacoveWire {
    /// `POST auth/v1/mobile/request-otp`: `{"phoneNumber", "name"?, "channel": "sms"}`.
    public struct PhoneCodeRequest: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case phoneNumber, name, channel }
        /// The number in international form.
        public var phoneNumber: String
        /// A display name for a new account.
        public var name: String?
        /// Always `sms`.
        public var channel: String
        /// A request; `nil` fields are left out.
        public init(phoneNumber: String, name: String? = nil, channel: String = "sms") {
            self.phoneNumber = phoneNumber
            self.name = name
            self.channel = channel
        }

        /// A left-out `channel` is `sms`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            phoneNumber = try container.decode(String.self, forKey: .phoneNumber)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            channel = try container.decodeIfPresent(String.self, forKey: .channel) ?? "sms"
        }
    }

    /// `POST auth/v1/mobile/verify-otp`: `{"phoneNumber", "otp", "channel": "sms"}`.
    public struct PhoneCodeCheck: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case phoneNumber, otp, channel }
        /// The number the code was sent to.
        public var phoneNumber: String
        /// The code the user typed.
        public var otp: String
        /// Always `sms`.
        public var channel: String
        /// A check.
        public init(phoneNumber: String, otp: String, channel: String = "sms") {
            self.phoneNumber = phoneNumber
            self.otp = otp
            self.channel = channel
        }

        /// A left-out `channel` is `sms`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            phoneNumber = try container.decode(String.self, forKey: .phoneNumber)
            otp = try container.decode(String.self, forKey: .otp)
            channel = try container.decodeIfPresent(String.self, forKey: .channel) ?? "sms"
        }
    }

    /// `POST auth/v1/email/request-otp`: `{"email", "name"?}`.
    public struct EmailCodeRequest: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case email, name }
        /// The address to send the code to.
        public var email: String
        /// A display name for a new account.
        public var name: String?
        /// A request; `nil` fields are left out.
        public init(email: String, name: String? = nil) {
            self.email = email
            self.name = name
        }
    }

    /// `POST auth/v1/email/verify-otp`: `{"email", "otp"}`.
    public struct EmailCodeCheck: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case email, otp }
        /// The address the code was sent to.
        public var email: String
        /// The code the user typed.
        public var otp: String
        /// A check.
        public init(email: String, otp: String) {
            self.email = email
            self.otp = otp
        }
    }

    /// `PATCH users/v1/profile`: `{"name"?, "timezone"?}`; a left-out field keeps its value.
    public struct ProfileUpdate: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case name, timezone }
        /// The new display name.
        public var name: String?
        /// The new IANA time zone.
        public var timezone: String?
        /// An update; `nil` fields are left out.
        public init(name: String? = nil, timezone: String? = nil) {
            self.name = name
            self.timezone = timezone
        }
    }

    /// `POST auth/v1/refresh`: `{"refreshToken"}`.
    public struct RefreshRequest: Codable, Sendable, Equatable {
        /// The JSON keys, which the server reads by name.
        public enum CodingKeys: String, CodingKey, CaseIterable { case refreshToken }
        /// The refresh token to spend.
        public var refreshToken: String
        /// A refresh.
        public init(refreshToken: String) { self.refreshToken = refreshToken }
    }
}
