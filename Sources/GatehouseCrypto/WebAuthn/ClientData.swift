import Foundation
import GatehouseFormats

/// The client's data of a ceremony (WebAuthn §5.8.1), read from the exact bytes received.
public struct ClientData: Sendable {
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    public let origin: String
    public let crossOrigin: Bool

    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= 16 * 1024, let json = try? JSONReader.parse(Data(bytes)), case .object(let fields) = json,
            case .string(let type)? = fields["type"], case .string(let challenge)? = fields["challenge"],
            case .string(let origin)? = fields["origin"], let decoded = Base64URL.decode(challenge)
        else { throw .clientDataMalformed }
        switch fields["crossOrigin"] {
        case nil, .bool(false)?: crossOrigin = false
        case .bool(true)?: crossOrigin = true
        default: throw .clientDataMalformed
        }
        self.type = type
        self.challenge = decoded
        self.origin = origin
    }
}
