/// Google's side of Google Play: what its Pub/Sub push subscription posts to Gatehouse.
public enum GooglePlayWire {
    /// A Pub/Sub push (`{"message": {...}, "subscription": "projects/…/subscriptions/…"}`);
    /// Pub/Sub writes the message's ids and times in both camelCase and snake_case.
    public struct Push: Codable, Sendable, Equatable {
        public struct Message: Codable, Sendable, Equatable {
            /// The developer notification's JSON, standard base64.
            public var data: String?
            public var messageId: String?
            public var message_id: String?
            public var publishTime: String?
            public var attributes: [String: String]?

            public init(data: String?, messageId: String?, publishTime: String? = nil) {
                self.data = data
                self.messageId = messageId
                message_id = messageId
                self.publishTime = publishTime
            }
        }
        public var message: Message
        public var subscription: String?

        public init(message: Message, subscription: String? = nil) {
            self.message = message
            self.subscription = subscription
        }
    }

    /// What the push route answers once the notification is taken (also for a repeat).
    public struct PushOutcome: Codable, Sendable, Equatable {
        /// `applied`, `recorded`, `duplicate`, or `ignored` for a package no tenant has.
        public var outcome: String
        public init(outcome: String) { self.outcome = outcome }
    }
}
