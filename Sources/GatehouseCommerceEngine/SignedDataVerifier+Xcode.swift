import Foundation
import GatehouseCrypto
import GatehouseFormats

/// Xcode StoreKit testing: Xcode signs transactions on the developer's Mac with one self-signed
/// certificate ("StoreKit Testing in Xcode") that chains to nothing and carries none of Apple's
/// marker OIDs. Apple's libraries skip every signature check for the `Xcode` environment; here a
/// non-production tenant instead pins that certificate (exported from Xcode as PEM), and only
/// data signed by exactly it, with its key, and saying `Xcode`, is accepted on that path.
extension SignedDataVerifier {
    /// Parses a pinned Xcode certificate; throws `invalidConfiguration` on a production tenant,
    /// for anything but one PEM certificate, or when its key is not the P-256 key ES256 needs.
    static func xcodeCertificate(pem: String, allowsTestEnvironments: Bool) throws -> Certificate {
        // Production must never accept data a developer's Mac signed.
        guard allowsTestEnvironments else {
            throw AppleVerificationError(.invalidConfiguration, "xcodeCertificatePEM is refused on production tenants")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(pem: pem)
            _ = try P256PublicKey(certificate: certificate)
        } catch {
            throw AppleVerificationError(.invalidConfiguration, "xcodeCertificatePEM is not a P-256 PEM certificate: \(error)")
        }
        return certificate
    }

    /// Checks that the JWS's single `x5c` entry is the pinned certificate byte for byte, that it
    /// was within its validity at the payload's `signedDate` (as a chain is checked; Xcode's
    /// certificate is long-lived, so this refuses only a stale export), and the ES256 signature.
    func verifyXcodeSignature(of jws: CompactJWS, pinned: Certificate) throws {
        guard let entry = jws.header.x5c?.first, let der = Base64.decode(entry) else {
            throw AppleVerificationError(.invalidCertificate, "x5c Xcode certificate is not standard base64 DER")
        }
        // Comparing the DER bytes pins the key, the name and the validity in one step.
        guard der == pinned.derRepresentation else {
            throw AppleVerificationError(.untrustedChain, "x5c holds one certificate, and it is not the pinned Xcode certificate")
        }
        let time = try signingTime(of: jws)
        if time > pinned.notAfter { throw AppleVerificationError(.expiredAtSigningDate, "Xcode certificate expired at signedDate") }
        if time < pinned.notBefore { throw AppleVerificationError(.notYetValidAtSigningDate, "Xcode certificate not yet valid at signedDate") }
        let key = try P256PublicKey(certificate: pinned)
        guard jws.signature.count == 64, key.verify(rawSignature: jws.signature, message: jws.signingInput) else {
            throw AppleVerificationError(.badSignature, "ES256 signature does not verify with the Xcode certificate's key")
        }
    }
}
