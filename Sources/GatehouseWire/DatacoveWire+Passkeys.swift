extension DatacoveWire {
    /// A credential named in options: `{"type": "public-key", "id": <base64url>}`.
    public struct PasskeyDescriptor: Codable, Sendable, Equatable {
        /// Always `public-key`.
        public var type: String
        /// The credential id, base64url.
        public var id: String
        /// A descriptor of the credential `id`.
        public init(id: String) {
            type = "public-key"
            self.id = id
        }
    }

    /// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.1.5.1), as the passkey
    /// registration options answer it.
    public struct PasskeyCreationOptions: Codable, Sendable, Equatable {
        /// `{id, name}` of the relying party.
        public struct RelyingParty: Codable, Sendable, Equatable {
            /// The rpId, a host name.
            public var id: String
            /// What authenticators show.
            public var name: String
            /// A relying party.
            public init(id: String, name: String) {
                self.id = id
                self.name = name
            }
        }
        /// The account as the authenticator keeps it.
        public struct User: Codable, Sendable, Equatable {
            /// The random user handle, base64url (never the phone or email).
            public var id: String
            /// The account's phone or email.
            public var name: String
            /// The same, for display.
            public var displayName: String
            /// The account as the authenticator keeps it.
            public init(id: String, name: String, displayName: String) {
                self.id = id
                self.name = name
                self.displayName = displayName
            }
        }
        /// An algorithm offered.
        public struct Parameter: Codable, Sendable, Equatable {
            /// Always `public-key`.
            public var type: String
            /// A COSE algorithm: -7 ES256, -8 EdDSA, -257 RS256.
            public var alg: Int
            /// The algorithm `alg`.
            public init(alg: Int) {
                type = "public-key"
                self.alg = alg
            }
        }
        /// What kind of authenticator is asked for.
        public struct Selection: Codable, Sendable, Equatable {
            /// `required`: a discoverable credential (a passkey).
            public var residentKey: String
            /// `true`, for clients of Level 1.
            public var requireResidentKey: Bool
            /// `required`.
            public var userVerification: String
            /// A passkey with user verification.
            public static let passkey = Selection(residentKey: "required", requireResidentKey: true, userVerification: "required")
        }
        /// The extensions asked for.
        public struct Extensions: Codable, Sendable, Equatable {
            /// Asks the client to say whether the credential is discoverable.
            public var credProps: Bool
        }
        /// The relying party.
        public var rp: RelyingParty
        /// The account.
        public var user: User
        /// 32 random bytes, base64url, kept by the server for five minutes and one answer.
        public var challenge: String
        /// ES256, EdDSA and RS256, in that order.
        public var pubKeyCredParams: [Parameter]
        /// Milliseconds the client may take.
        public var timeout: Int
        /// The account's passkeys already registered.
        public var excludeCredentials: [PasskeyDescriptor]
        /// A discoverable credential with user verification.
        public var authenticatorSelection: Selection
        /// `none`.
        public var attestation: String
        /// `credProps`.
        public var extensions: Extensions

        /// The options of a registration.
        public init(rp: RelyingParty, user: User, challenge: String, algorithms: [Int], timeout: Int, excludeCredentials: [PasskeyDescriptor]) {
            self.rp = rp
            self.user = user
            self.challenge = challenge
            pubKeyCredParams = algorithms.map(Parameter.init(alg:))
            self.timeout = timeout
            self.excludeCredentials = excludeCredentials
            authenticatorSelection = .passkey
            attestation = "none"
            extensions = Extensions(credProps: true)
        }
    }

    /// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.1.5.2), as the sign-in options answer it.
    public struct PasskeyRequestOptions: Codable, Sendable, Equatable {
        /// 32 random bytes, base64url, kept by the server for five minutes and one answer.
        public var challenge: String
        /// The relying party id.
        public var rpId: String
        /// Milliseconds the client may take.
        public var timeout: Int
        /// `required`.
        public var userVerification: String
        /// Empty for a discoverable sign-in; the account's passkeys when it was named.
        public var allowCredentials: [PasskeyDescriptor]
        /// The options of a sign-in.
        public init(challenge: String, rpId: String, timeout: Int, allowCredentials: [PasskeyDescriptor]) {
            self.challenge = challenge
            self.rpId = rpId
            self.timeout = timeout
            userVerification = "required"
            self.allowCredentials = allowCredentials
        }
    }

    /// The body of `POST auth/v1/passkeys/sign-in-options`: nothing (a discoverable sign-in),
    /// or the account's phone number or email.
    public struct PasskeySignInOptionsRequest: Codable, Sendable, Equatable {
        /// An international number such as `+14165550199`.
        public var phoneNumber: String?
        /// An email address.
        public var email: String?
        /// A request naming nothing, a phone or an email.
        public init(phoneNumber: String? = nil, email: String? = nil) {
            self.phoneNumber = phoneNumber
            self.email = email
        }
    }

    /// `RegistrationResponseJSON` (WebAuthn L3 §5.1): what the authenticator made.
    public struct PasskeyRegistrationCredential: Codable, Sendable, Equatable {
        /// The attestation response's parts, base64url.
        public struct Response: Codable, Sendable, Equatable {
            /// The client data's exact bytes.
            public var clientDataJSON: String
            /// The CBOR attestation object.
            public var attestationObject: String
            /// How the client may reach the authenticator (`internal`, `hybrid`, …).
            public var transports: [String]?
            /// A response of these parts.
            public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
                self.clientDataJSON = clientDataJSON
                self.attestationObject = attestationObject
                self.transports = transports
            }
        }
        /// The credential id, base64url.
        public var id: String
        /// The same bytes, base64url.
        public var rawId: String
        /// `public-key`.
        public var type: String
        /// The attestation response.
        public var response: Response
        /// `platform` or `cross-platform`, when the client says.
        public var authenticatorAttachment: String?
        /// A credential of these parts.
        public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
            self.id = id
            self.rawId = rawId
            self.type = type
            self.response = response
            self.authenticatorAttachment = authenticatorAttachment
        }
    }

    /// The body of `POST auth/v1/passkeys`: a new passkey and the name its owner gives it.
    public struct PasskeyRegistration: Codable, Sendable, Equatable {
        /// 1 to 64 characters, such as the device's name.
        public var name: String
        /// The authenticator's answer to the creation options.
        public var credential: PasskeyRegistrationCredential
        /// A registration body.
        public init(name: String, credential: PasskeyRegistrationCredential) {
            self.name = name
            self.credential = credential
        }
    }

    /// `AuthenticationResponseJSON` (WebAuthn L3 §5.1): the authenticator's assertion.
    public struct PasskeyAssertionCredential: Codable, Sendable, Equatable {
        /// The assertion response's parts, base64url.
        public struct Response: Codable, Sendable, Equatable {
            /// The client data's exact bytes.
            public var clientDataJSON: String
            /// The authenticator data.
            public var authenticatorData: String
            /// The signature over the authenticator data and the client data's hash.
            public var signature: String
            /// The account's user handle, which a discoverable credential gives.
            public var userHandle: String?
            /// A response of these parts.
            public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
                self.clientDataJSON = clientDataJSON
                self.authenticatorData = authenticatorData
                self.signature = signature
                self.userHandle = userHandle
            }
        }
        /// The credential id, base64url.
        public var id: String
        /// The same bytes, base64url.
        public var rawId: String
        /// `public-key`.
        public var type: String
        /// The assertion response.
        public var response: Response
        /// `platform` or `cross-platform`, when the client says.
        public var authenticatorAttachment: String?
        /// A credential of these parts.
        public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
            self.id = id
            self.rawId = rawId
            self.type = type
            self.response = response
            self.authenticatorAttachment = authenticatorAttachment
        }
    }

    /// The body of `POST auth/v1/passkeys/sign-in`.
    public struct PasskeySignIn: Codable, Sendable, Equatable {
        /// The authenticator's answer to the request options.
        public var credential: PasskeyAssertionCredential
        /// A sign-in body.
        public init(credential: PasskeyAssertionCredential) { self.credential = credential }
    }

    /// A passkey of the account, never its key.
    public struct PasskeyInfo: Codable, Sendable, Equatable {
        /// The credential id, base64url.
        public var id: String
        /// Its owner's name for it.
        public var name: String
        /// When it was registered (ISO 8601).
        public var createdAt: String
        /// When it last signed in; `null` until then.
        @ExplicitNull public var lastUsedAt: String?
        /// Whether it is synced (backed up) to the user's other devices.
        public var backedUp: Bool
        /// A passkey as listed.
        public init(id: String, name: String, createdAt: String, lastUsedAt: String?, backedUp: Bool) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.backedUp = backedUp
        }
    }

    /// `GET auth/v1/passkeys`.
    public struct PasskeyList: Codable, Sendable, Equatable {
        /// The account's passkeys, oldest first.
        public var passkeys: [PasskeyInfo]
        /// A list.
        public init(passkeys: [PasskeyInfo]) { self.passkeys = passkeys }
    }

    /// The body of `PATCH auth/v1/passkeys/:id`.
    public struct PasskeyRename: Codable, Sendable, Equatable {
        /// 1 to 64 characters.
        public var name: String
        /// A rename body.
        public init(name: String) { self.name = name }
    }

    /// `PUT|GET tenants/v1/:id/passkey-config` (admin token): the tenant's relying party.
    public struct PasskeyConfig: Codable, Sendable, Equatable {
        /// A registrable host name, such as `example.com`.
        public var rpId: String
        /// What authenticators show.
        public var rpName: String
        /// `https://<rpId or a subdomain>`, and `android:apk-key-hash:<hash>` for Android apps.
        public var origins: [String]
        /// `TEAMID.bundle.id` of the iOS apps, served in `/.well-known/apple-app-site-association`.
        public var iosAppIds: [String]
        /// Whether passkeys may be made and used.
        public var enabled: Bool
        /// A configuration.
        public init(rpId: String, rpName: String, origins: [String], iosAppIds: [String], enabled: Bool) {
            self.rpId = rpId
            self.rpName = rpName
            self.origins = origins
            self.iosAppIds = iosAppIds
            self.enabled = enabled
        }
    }
}
