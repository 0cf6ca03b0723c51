import Foundation

extension AdminWire {
    /// A tenant's possession settings (`GET`/`PUT /admin/v1/tenants/:id/possession`).
    /// `carrierSecret` is write-only: answers say `hasCarrierSecret`; a PUT that leaves it out
    /// keeps the stored one while the carrier's client stays the same.
    public struct PossessionSettings: Codable, Sendable, Equatable {
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case environment, returnFullSsn, carrier, carrierSecret, hasCarrierSecret, identities
        }
        /// `sandbox` (test mode allowed) or `production`.
        public var environment: String
        /// Whether Challenge returns the whole SSN instead of its last four.
        public var returnFullSsn: Bool?
        public var carrier: CamaraCarrier?
        /// Write-only: the carrier's OAuth client secret.
        public var carrierSecret: String?
        /// In answers.
        public var hasCarrierSecret: Bool?
        /// In answers: how many records the identity directory holds.
        public var identities: Int?

        /// Settings.
        public init(
            environment: String, returnFullSsn: Bool? = nil, carrier: CamaraCarrier? = nil, carrierSecret: String? = nil,
            hasCarrierSecret: Bool? = nil, identities: Int? = nil
        ) {
            self.environment = environment
            self.returnFullSsn = returnFullSsn
            self.carrier = carrier
            self.carrierSecret = carrierSecret
            self.hasCarrierSecret = hasCarrierSecret
            self.identities = identities
        }
    }

    /// A mobile operator's CAMARA Number Verification client.
    public struct CamaraCarrier: Codable, Sendable, Equatable {
        public var authorizationEndpoint: String
        public var tokenEndpoint: String
        /// The API root before `/number-verification/v0/verify`.
        public var apiBase: String
        public var clientId: String
        /// Where the operator sends the device back (the SDK stops there).
        public var redirectUri: String
        /// Allows http and private addresses (a local stand-in).
        public var development: Bool?

        /// A carrier.
        public init(authorizationEndpoint: String, tokenEndpoint: String, apiBase: String, clientId: String, redirectUri: String, development: Bool? = nil) {
            self.authorizationEndpoint = authorizationEndpoint
            self.tokenEndpoint = tokenEndpoint
            self.apiBase = apiBase
            self.clientId = clientId
            self.redirectUri = redirectUri
            self.development = development
        }
    }

    /// A server-to-server client of the v3 API; `clientSecret` only in the answer that made it.
    public struct PossessionClient: Codable, Sendable, Equatable {
        public var clientId: String
        public var label: String
        public var createdAt: String
        public var clientSecret: String?
        /// A client.
        public init(clientId: String, label: String, createdAt: String, clientSecret: String? = nil) {
            self.clientId = clientId
            self.label = label
            self.createdAt = createdAt
            self.clientSecret = clientSecret
        }
    }

    /// `POST /admin/v1/tenants/:id/possession/identities`: records added or replaced by number.
    public struct IdentityImport: Codable, Sendable, Equatable {
        public var identities: [Identity]
        /// An import.
        public init(identities: [Identity]) { self.identities = identities }
    }

    /// The answer to an import.
    public struct IdentityImported: Codable, Sendable, Equatable {
        public var imported: Int
        /// An answer.
        public init(imported: Int) { self.imported = imported }
    }

    /// One person of the identity directory.
    public struct Identity: Codable, Sendable, Equatable {
        public var phoneNumber: String
        public var firstName: String
        public var lastName: String
        public var addresses: [ProveWire.Address]?
        public var emailAddresses: [String]?
        /// `YYYY-MM-DD`; sealed at rest.
        public var dob: String?
        /// Nine digits; sealed at rest.
        public var ssn: String?

        /// A record.
        public init(
            phoneNumber: String, firstName: String, lastName: String, addresses: [ProveWire.Address]? = nil, emailAddresses: [String]? = nil,
            dob: String? = nil, ssn: String? = nil
        ) {
            self.phoneNumber = phoneNumber
            self.firstName = firstName
            self.lastName = lastName
            self.addresses = addresses
            self.emailAddresses = emailAddresses
            self.dob = dob
            self.ssn = ssn
        }
    }
}

extension AdminWire {
    /// `POST /admin/v1/tenants/:id/possession/clients`.
    public struct CreatePossessionClient: Codable, Sendable, Equatable {
        public var label: String
        /// A request.
        public init(label: String) { self.label = label }
    }
}
