extension DatacoveWire {
    /// The error envelope of every Datacove endpoint (seed 000 §08):
    /// `{statusCode, timestamp, path, error: {statusCode, error, message, code, canTransfer}}`.
    ///
    /// Every field but `error` is optional on decode, so a proxy's or an older server's partial
    /// envelope still yields its code; the server sends them all (`code` and `canTransfer` only when set).
    public struct ErrorEnvelope: Codable, Sendable, Equatable {
        /// The HTTP status, repeated in the body.
        public var statusCode: Int?
        /// When the error happened (RFC 3339, milliseconds).
        public var timestamp: String?
        /// The request path.
        public var path: String?
        /// What went wrong.
        public var error: Detail

        /// An envelope.
        public init(statusCode: Int? = nil, timestamp: String? = nil, path: String? = nil, error: Detail) {
            self.statusCode = statusCode
            self.timestamp = timestamp
            self.path = path
            self.error = error
        }

        /// The `error` object.
        public struct Detail: Codable, Sendable, Equatable {
            /// The HTTP status again.
            public var statusCode: Int?
            /// The status's reason phrase (`Conflict`).
            public var error: String?
            /// A sentence for people.
            public var message: String?
            /// The stable code apps branch on (`PURCHASE_LINKED_TO_ANOTHER_ACCOUNT`).
            public var code: String?
            /// Only with `PURCHASE_LINKED_TO_ANOTHER_ACCOUNT`: whether the app may offer to move the plan.
            public var canTransfer: Bool?
            /// Only with `INSUFFICIENT_CREDITS`: the `WALLET` balance that was too small.
            public var balance: Int?

            /// A detail.
            public init(
                statusCode: Int? = nil, error: String? = nil, message: String? = nil, code: String? = nil, canTransfer: Bool? = nil,
                balance: Int? = nil
            ) {
                self.statusCode = statusCode
                self.error = error
                self.message = message
                self.code = code
                self.canTransfer = canTransfer
                self.balance = balance
            }
        }
    }
}
