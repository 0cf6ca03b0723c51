extension DatacoveWire {
    /// The answer of `GET purchases/v1/entitlement` and `POST purchases/v1/trial/start` (seed 000 §07).
    public struct EntitlementSummary: Codable, Sendable, Equatable {
        /// The account's server trial.
        public var trial: Trial
        /// Whether the paywall may offer the trial.
        public var trialOffer: TrialOffer
        /// The account's plan.
        public var entitlement: Entitlement
        /// The plans the paywall shows.
        public var plans: [Plan]
        /// Whether gated workflows may run now.
        public var canExecuteGatedWorkflow: Bool
        /// The server's clock, which the app times the entitlement by instead of the device's.
        public var serverTime: String

        /// A summary.
        public init(trial: Trial, trialOffer: TrialOffer, entitlement: Entitlement, plans: [Plan], canExecuteGatedWorkflow: Bool, serverTime: String) {
            self.trial = trial
            self.trialOffer = trialOffer
            self.entitlement = entitlement
            self.plans = plans
            self.canExecuteGatedWorkflow = canExecuteGatedWorkflow
            self.serverTime = serverTime
        }

        /// `{"status", "startedAt"?, "endsAt"?}`.
        public struct Trial: Codable, Sendable, Equatable {
            /// `not_started`, `active` or `ended`.
            public var status: String
            /// When the trial started, once it has.
            public var startedAt: String?
            /// When the trial ends or ended, once it has started.
            public var endsAt: String?

            /// A trial state.
            public init(status: String, startedAt: String? = nil, endsAt: String? = nil) {
                self.status = status
                self.startedAt = startedAt
                self.endsAt = endsAt
            }
        }

        /// `{"available", "durationDays"?}`; the duration only while the offer is available.
        public struct TrialOffer: Codable, Sendable, Equatable {
            /// Whether the trial can still be started.
            public var available: Bool
            /// How long the trial lasts.
            public var durationDays: Int?

            /// A trial offer.
            public init(available: Bool, durationDays: Int? = nil) {
                self.available = available
                self.durationDays = durationDays
            }
        }

        /// `{"status"}`, plus `productId`, `platform` and `currentPeriodEnd` (possibly `null`) when a plan is held.
        public struct Entitlement: Codable, Sendable, Equatable {
            /// `none`, `active`, `in_grace`, `expired`, …
            public var status: String
            /// The catalog id of the plan held.
            public var productId: String?
            /// `apple` when a plan is held.
            public var platform: String?
            /// The end of the paid period.
            public var currentPeriodEnd: String?

            /// An entitlement state.
            public init(status: String, productId: String? = nil, platform: String? = nil, currentPeriodEnd: String? = nil) {
                self.status = status
                self.productId = productId
                self.platform = platform
                self.currentPeriodEnd = currentPeriodEnd
            }

            enum CodingKeys: String, CodingKey { case status, productId, platform, currentPeriodEnd }

            /// Writes `currentPeriodEnd` (even as `null`) whenever a plan is held, as the server does.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(status, forKey: .status)
                guard let productId else { return }
                try container.encode(productId, forKey: .productId)
                try container.encodeIfPresent(platform, forKey: .platform)
                try container.encode(currentPeriodEnd, forKey: .currentPeriodEnd)
            }
        }

        /// A plan as the paywall shows it.
        public struct Plan: Codable, Sendable, Equatable {
            /// The catalog id.
            public var productId: String
            /// The App Store product id.
            public var platformProductId: String
            /// The name shown to the user.
            public var displayName: String
            /// `monthly`, `annual` or `one_time_year`.
            public var interval: String
            /// The workflow the plan unlocks; sent as `null` when none.
            @ExplicitNull public var gatedWorkflowId: String?

            /// A plan.
            public init(productId: String, platformProductId: String, displayName: String, interval: String, gatedWorkflowId: String? = nil) {
                self.productId = productId
                self.platformProductId = platformProductId
                self.displayName = displayName
                self.interval = interval
                self.gatedWorkflowId = gatedWorkflowId
            }
        }
    }
}
