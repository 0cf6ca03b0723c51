import Foundation
import GatehouseFormats

/// One endpoint, declared once: its method, path template, request and reply types, the
/// credential it takes and the envelope its errors come in. The server's router registers
/// it, the SDK calls through it and the OpenAPI operation is built from it.
///
/// ```swift
/// extension ManagedAPIWire.Endpoints {
///     static let definition = Endpoint<NoBody, ManagedAPIWire.Definition>(
///         .GET, "/api/managed-apis/v1/:name", credential: .session, envelope: .datacove, id: "getManagedAPI", summary: "One managed API")
/// }
/// let path = ManagedAPIWire.Endpoints.definition.path(["name": "crm"])   // /api/managed-apis/v1/crm
/// ```
public struct Endpoint<Body: Sendable, Reply: Sendable>: Sendable {
    /// The request method, upper case.
    public let method: RequestMethod
    /// The path from the server's root; `:name` is a segment parameter, a final `*` the rest.
    public let template: String
    public let credential: Credential
    public let envelope: ErrorEnvelope
    /// The OpenAPI `operationId`, unique within its document.
    public let id: String
    /// One line for the OpenAPI document.
    public let summary: String

    public init(_ method: RequestMethod, _ template: String, credential: Credential, envelope: ErrorEnvelope, id: String, summary: String) {
        self.method = method
        self.template = template
        self.credential = credential
        self.envelope = envelope
        self.id = id
        self.summary = summary
    }

    /// The template's parameter names, in order (`*` is `path`).
    public var parameters: [String] {
        template.split(separator: "/").compactMap { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 == "*" ? "path" : nil }
    }

    /// The path with each `:name` replaced by its value, percent-encoded as one segment (a
    /// value with `/` stays one segment); the rest (`*`) is appended as given.
    public func path(_ values: [String: String] = [:]) -> String {
        let segments = template.split(separator: "/").map { segment -> String in
            if segment.hasPrefix(":") { return PercentEncoding.escaped(values[String(segment.dropFirst())] ?? "") }
            if segment == "*" { return values["path"] ?? "" }
            return String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// The path below `mount` (the SDK's base URL ends where the dialect's prefix does).
    public func path(below mount: String, _ values: [String: String] = [:]) -> String {
        let full = path(values)
        return full.hasPrefix(mount + "/") || full == mount ? String(full.dropFirst(mount.count)) : full
    }

    /// The declaration without its types, for lists of every endpoint.
    public var described: EndpointDescription {
        EndpointDescription(method: method, template: template, credential: credential, envelope: envelope, id: id, summary: summary)
    }
}

/// What an ``Endpoint`` declares, without its types.
public struct EndpointDescription: Sendable, Hashable {
    public let method: RequestMethod
    public let template: String
    public let credential: Credential
    public let envelope: ErrorEnvelope
    public let id: String
    public let summary: String
}

/// A request method, as the contract names it.
public enum RequestMethod: String, Sendable, Hashable, CaseIterable {
    case GET, HEAD, POST, PUT, PATCH, DELETE
}

/// The kinds of credential a caller presents; the server has one authenticator per kind.
public struct Credential: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Nothing: anyone may call.
    public static let none = Credential(rawValue: "none")
    /// A Datacove session's access token (`Authorization: Bearer`).
    public static let session = Credential(rawValue: "session")
    /// A Datacove application key (`x-api-key`).
    public static let apiKey = Credential(rawValue: "api-key")
    /// The operator's admin token (`Authorization: Bearer`).
    public static let admin = Credential(rawValue: "admin")
    /// A DIDWW application key, with or without its signature.
    public static let applicationKey = Credential(rawValue: "application-key")
    /// A Prove client's bearer token from `POST /token`.
    public static let proveClient = Credential(rawValue: "prove-client")
    /// A tenant worker's signature (`X-Gatehouse-Signature`).
    public static let workerSignature = Credential(rawValue: "worker-signature")
    /// A client's id and secret, in a form or as HTTP Basic (OAuth's client credentials grant).
    public static let clientCredentials = Credential(rawValue: "client-credentials")
    /// A possession flow's bearer: its one-time authToken to begin, then its device token.
    public static let possessionToken = Credential(rawValue: "possession-token")
    /// A tenant's server key (an API key without a platform) as bearer: a backend's call.
    public static let serverKey = Credential(rawValue: "server-key")
    /// A customer's account token with the app's client secret (`X-SF-Account-Token`, `X-SF-Client-Secret`).
    public static let accountToken = Credential(rawValue: "account-token")
    /// The operator's metrics token (`Authorization: Bearer`), when one is configured.
    public static let metricsToken = Credential(rawValue: "metrics-token")
    /// A provider's signature over its callback (Twilio's `X-Twilio-Signature`, Vonage's JWT or `sig`).
    public static let providerSignature = Credential(rawValue: "provider-signature")
    /// A Google-signed OpenID Connect token (`Authorization: Bearer`) on a Pub/Sub push.
    public static let googlePush = Credential(rawValue: "google-push")
    /// A payload signed by its sender inside the body (Apple's JWS), which the engine verifies.
    public static let signedPayload = Credential(rawValue: "signed-payload")
    /// A link the server signed itself (`expires` and `signature` in the query).
    public static let signedLink = Credential(rawValue: "signed-link")
}

/// The error envelope of a dialect.
public enum ErrorEnvelope: String, Sendable, Hashable {
    case datacove, didww, admin, subscriptionFlow, prove
}

/// A request or reply without a body.
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// A body of any bytes and type, passed on as it is (the managed API proxy).
public struct RawBytes: Sendable {}
