import Foundation
import GatehouseFormats

/// A JWS in compact serialization, split and decoded but not yet trusted (RFC 7515 §7.1).
public struct CompactJWS: Sendable {
    /// The decoded header fields.
    public let header: JOSEHeader
    /// The header's exact JSON bytes.
    public let headerJSON: [UInt8]
    /// The payload bytes (JSON for a JWT).
    public let payload: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]
    /// The ASCII bytes `base64url(header) "." base64url(payload)` that the signature covers.
    public let signingInput: [UInt8]

    /// Splits and decodes `compact`; throws `.malformed` for anything but three strict base64url
    /// segments whose first decodes to a JSON object with a string `alg` and no repeated member name.
    public init(compact: String) throws {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let headerJSON = Base64URL.decode(segments[0]),
              let payload = Base64URL.decode(segments[1]),
              let signature = Base64URL.decode(segments[2]),
              let header = try? JOSEHeader.parse(headerJSON)
        else {
            throw JWTError.malformed
        }
        // RFC 7515 §4.1.11: a verifier must reject extensions it is told are critical and does
        // not implement; Gatehouse implements none.
        guard header.crit == nil else { throw JWTError.malformed }
        self.header = header
        self.headerJSON = headerJSON
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(segments[0].utf8) + [UInt8(ascii: ".")] + Array(segments[1].utf8)
    }

    /// The payload as a JSON object; throws `.malformed` if it is not one, or if it names a
    /// member twice at any depth (RFC 7519 §4).
    public func claims() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: checkedPayloadJSON()) as? [String: Any] else {
            throw JWTError.malformed
        }
        return object
    }

    /// Decodes the payload JSON into `type` (members it does not name are ignored); throws
    /// `.malformed` if the payload is not JSON, names a member twice, or does not fit `type`.
    /// One read by the linear-time reader, then Gatehouse's one decoder, not Foundation's.
    public func decodePayload<T: Decodable>(_ type: T.Type) throws -> T {
        guard let tree = try? JSONReader.parse(Data(payload)),
            let value = try? JSONBodyDecoder(unknownKeys: .ignore).decode(T.self, from: tree)
        else { throw JWTError.malformed }
        return value
    }

    /// The payload, once it is known to be JSON without repeated member names. Every reading of
    /// the payload as JSON goes through here: Foundation's decoders keep one of two values for a
    /// repeated name, so a signed `bundleId` given twice would otherwise pass as either.
    private func checkedPayloadJSON() throws -> Data {
        do {
            try JSONReader.validate(Data(payload))
        } catch {
            throw JWTError.malformed
        }
        return Data(payload)
    }

    /// The `x5c` chain parsed as certificates, leaf first; throws `.malformed` when absent, empty,
    /// or when an entry is not strict standard base64 of one DER certificate.
    public func certificateChain() throws -> [Certificate] {
        guard let entries = header.x5c, !entries.isEmpty else { throw JWTError.malformed }
        return try entries.map { entry in
            guard let der = Base64.decode(entry), let certificate = try? Certificate(der: der) else {
                throw JWTError.malformed
            }
            return certificate
        }
    }
}
