import Foundation
import GatehouseCrypto
import GatehouseFormats

/// Verifies App Store signed data (transactions, renewal info, notifications) offline for one tenant.
///
/// The order of checks follows Apple's own libraries: format, algorithm, `x5c` length, chain to
/// the configured roots at the payload's `signedDate`, marker OIDs, ES256 signature, then claims.
/// The root in the header (`x5c[2]`) is never used: trust starts only from `trustedRoots`.
/// A non-production tenant may also pin its Xcode StoreKit testing certificate: then data of the
/// `Xcode` environment signed by exactly that certificate verifies too (see `+Xcode`).
public struct SignedDataVerifier: Sendable {
    /// The leaf marker: the certificate signs App Store data (not just any Apple-issued cert).
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The intermediate marker: Apple Worldwide Developer Relations CA.
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"

    /// The tenant's bundle id every payload must name.
    public let bundleId: String
    /// The tenant's App Store app id, checked on production notifications when set.
    public let appAppleId: Int64?
    /// Whether Xcode and LocalTesting payloads are accepted (never for production tenants).
    public let allowsTestEnvironments: Bool
    /// Apple Root CA - G3, plus the tenant's extra test root when allowed.
    public let trustedRoots: [Certificate]
    /// The tenant's pinned "StoreKit Testing in Xcode" certificate, when it opted in (never production).
    public let xcodeCertificate: Certificate?

    /// Creates a verifier; throws when `extraTrustedRootPEM` or `xcodeCertificatePEM` is given to
    /// a production tenant (`allowsTestEnvironments == false`), when one does not parse, or when
    /// the pinned root fails.
    public init(
        bundleId: String, appAppleId: Int64?, allowsTestEnvironments: Bool, extraTrustedRootPEM: String?, xcodeCertificatePEM: String? = nil
    ) throws {
        var roots = [try AppleRootCertificate.pinned()]
        if let extraTrustedRootPEM {
            // A production tenant trusting a second root could accept forged purchases.
            guard allowsTestEnvironments else {
                throw AppleVerificationError(.invalidConfiguration, "extraTrustedRootPEM is refused on production tenants")
            }
            do {
                roots.append(try Certificate(pem: extraTrustedRootPEM))
            } catch {
                throw AppleVerificationError(.invalidConfiguration, "extraTrustedRootPEM does not parse: \(error)")
            }
        }
        let xcode = try xcodeCertificatePEM.map { try Self.xcodeCertificate(pem: $0, allowsTestEnvironments: allowsTestEnvironments) }
        self.init(
            bundleId: bundleId, appAppleId: appAppleId, allowsTestEnvironments: allowsTestEnvironments, trustedRoots: roots,
            xcodeCertificate: xcode)
    }

    /// Creates a verifier with exactly `trustedRoots`; internal so only tests can build a
    /// production-mode verifier that trusts a test root.
    init(bundleId: String, appAppleId: Int64?, allowsTestEnvironments: Bool, trustedRoots: [Certificate], xcodeCertificate: Certificate? = nil) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.allowsTestEnvironments = allowsTestEnvironments
        self.trustedRoots = trustedRoots
        self.xcodeCertificate = allowsTestEnvironments ? xcodeCertificate : nil
    }

    /// Verifies a signed transaction and checks its bundle id and environment.
    public func verifyTransaction(_ jws: String) throws -> TransactionPayload {
        let verified = try verifySignedData(jws)
        let claims = try decode(AppClaims.self, from: verified.payload)
        guard claims.bundleId == bundleId else {
            throw AppleVerificationError(.wrongBundleId, "transaction for \(claims.bundleId ?? "no bundle id")")
        }
        _ = try checkEnvironment(claims.environment, of: verified)
        return try decode(TransactionPayload.self, from: verified.payload)
    }

    /// Verifies signed renewal info and checks its environment (it carries no bundle id).
    public func verifyRenewalInfo(_ jws: String) throws -> RenewalInfoPayload {
        let verified = try verifySignedData(jws)
        let claims = try decode(AppClaims.self, from: verified.payload)
        _ = try checkEnvironment(claims.environment, of: verified)
        return try decode(RenewalInfoPayload.self, from: verified.payload)
    }

    /// Runs every check up to and including the signature and returns the trusted payload bytes.
    func verifySignedData(_ jws: String) throws -> SignedData {
        // 1. Three segments that decode, with a JSON object as payload.
        guard jws.split(separator: ".", omittingEmptySubsequences: false).count == 3,
              let parsed = try? CompactJWS(compact: jws),
              (try? parsed.claims()) != nil
        else {
            throw AppleVerificationError(.invalidFormat, "not a compact JWS with a JSON payload")
        }
        // 2. Only ES256: refuses `none` and HMAC confusion before any key is touched.
        guard parsed.header.alg == "ES256" else {
            throw AppleVerificationError(.invalidAlgorithm, "alg \(parsed.header.alg)")
        }
        // 3. Exactly leaf, intermediate, root; or the one certificate this tenant pinned for Xcode.
        if let xcodeCertificate, let x5c = parsed.header.x5c, x5c.count == 1 {
            try verifyXcodeSignature(of: parsed, pinned: xcodeCertificate)
            return SignedData(payload: parsed.payload, signedByXcode: true)
        }
        guard let x5c = parsed.header.x5c, x5c.count == 3 else {
            throw AppleVerificationError(.invalidChainLength, "x5c has \(parsed.header.x5c?.count ?? 0) entries")
        }
        // 4. Leaf and intermediate only; x5c[2] is deliberately never parsed or trusted.
        let leaf = try certificate(x5c[0], role: "leaf")
        let intermediate = try certificate(x5c[1], role: "intermediate")
        // 5–7. Path validation at signing time, so old data stays valid after the leaf rotates; then OIDs.
        try verifyCertificatePath(leaf: leaf, intermediate: intermediate, at: signingTime(of: parsed))
        // 9. The signature, with the leaf's P-256 key (step 8, OCSP, is online-only and not done here).
        let key: P256PublicKey
        do {
            key = try P256PublicKey(certificate: leaf)
        } catch {
            throw AppleVerificationError(.invalidCertificate, "leaf key is not P-256: \(error)")
        }
        guard parsed.signature.count == 64, key.verify(rawSignature: parsed.signature, message: parsed.signingInput) else {
            throw AppleVerificationError(.badSignature, "ES256 signature does not verify with the leaf key")
        }
        return SignedData(payload: parsed.payload, signedByXcode: false)
    }

    /// Maps an environment string to a case this tenant accepts for data signed as `verified`
    /// was, or throws `wrongEnvironment`: Xcode's certificate signs only `Xcode` data.
    func checkEnvironment(_ raw: String?, of verified: SignedData) throws -> AppStoreEnvironment {
        guard let raw, let environment = AppStoreEnvironment(rawValue: raw) else {
            throw AppleVerificationError(.wrongEnvironment, "unknown environment \(raw ?? "(missing)")")
        }
        guard allowsTestEnvironments || !environment.isTestOnly else {
            throw AppleVerificationError(.wrongEnvironment, "\(raw) is refused for production tenants")
        }
        guard !verified.signedByXcode || environment == .xcode else {
            throw AppleVerificationError(.wrongEnvironment, "the Xcode certificate signed \(raw) data")
        }
        return environment
    }

    /// Decodes trusted payload bytes; Apple writes dates as milliseconds since the epoch, and
    /// Xcode with a fraction (`1697679936056.485`), which is rounded down to the millisecond.
    func decode<T: Decodable>(_ type: T.Type, from payload: [UInt8]) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try AppleMilliseconds.date(try decoder.singleValueContainer().decode(Double.self))
        }
        do {
            return try decoder.decode(type, from: Data(payload))
        } catch {
            throw AppleVerificationError(.invalidFormat, "payload does not decode as \(T.self): \(error)")
        }
    }

    private func certificate(_ entry: String, role: String) throws -> Certificate {
        // Strict standard base64: PEM armour, whitespace and base64url alphabets are all refused.
        guard let der = Base64.decode(entry), let certificate = try? Certificate(der: der) else {
            throw AppleVerificationError(.invalidCertificate, "x5c \(role) is not standard base64 DER")
        }
        return certificate
    }

    func signingTime(of jws: CompactJWS) throws -> Date {
        guard let time = try? decode(SigningTime.self, from: jws.payload) else {
            throw AppleVerificationError(.invalidFormat, "signedDate is not a number of milliseconds")
        }
        // Apple's libraries fall back to the clock only when the field is absent.
        return time.signedDate ?? Date()
    }

    /// Steps 6–7: RFC 5280 path from `leaf` through `intermediate` to a configured root at
    /// `time`, then Apple's marker OIDs on both.
    func verifyCertificatePath(leaf: Certificate, intermediate: Certificate, at time: Date) throws {
        do {
            try CertificateChain.verify(leaf: leaf, intermediates: [intermediate], trustedRoots: trustedRoots, at: time)
        } catch CryptoError.untrustedChain(let rejection, _, let detail) {
            switch rejection {
            case .expired: throw AppleVerificationError(.expiredAtSigningDate, detail)
            case .notYetValid: throw AppleVerificationError(.notYetValidAtSigningDate, detail)
            default: throw AppleVerificationError(.untrustedChain, detail)
            }
        } catch {
            throw AppleVerificationError(.untrustedChain, "\(error)")
        }
        // OpenSSL may build a path that skips x5c[1]; the OID check below must concern the
        // certificate that really issued the leaf.
        guard leaf.issuer == intermediate.subject else {
            throw AppleVerificationError(.untrustedChain, "leaf is not issued by the x5c intermediate")
        }
        // The root pin alone admits every Apple-issued certificate; the OIDs narrow it to App Store signing.
        guard leaf.hasExtension(oid: Self.leafMarkerOID) else {
            throw AppleVerificationError(.missingMarkerOID, "leaf lacks \(Self.leafMarkerOID)")
        }
        guard intermediate.hasExtension(oid: Self.intermediateMarkerOID) else {
            throw AppleVerificationError(.missingMarkerOID, "intermediate lacks \(Self.intermediateMarkerOID)")
        }
    }
}

/// The only claim read before the signature is checked: it picks the validation time.
private struct SigningTime: Decodable {
    let signedDate: Date?
}

/// Payload bytes whose signature verified, and which kind of signer made it.
struct SignedData {
    let payload: [UInt8]
    /// Signed by the tenant's pinned Xcode certificate rather than through a certificate chain.
    let signedByXcode: Bool
}

/// App Store dates: milliseconds since 1970, whole from Apple, fractional from Xcode.
enum AppleMilliseconds {
    /// The instant `milliseconds` denotes, rounded down to a whole millisecond; throws for
    /// values that are not finite.
    static func date(_ milliseconds: Double) throws -> Date {
        guard milliseconds.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a finite number of milliseconds"))
        }
        return Date(timeIntervalSince1970: milliseconds.rounded(.down) / 1000)
    }
}

/// Claims checked against the tenant before the full payload is decoded, so an unknown
/// environment reads as `wrongEnvironment` rather than a decoding failure.
struct AppClaims: Decodable {
    let bundleId: String?
    let environment: String?
}
