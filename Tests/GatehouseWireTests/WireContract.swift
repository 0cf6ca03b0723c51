import Foundation
import GatehouseWire
import Testing
import GatehouseFormats

/// Checks a wire type against a seed's literal JSON: it decodes, and encodes back to the same
/// document (compared as parsed JSON, so key order and spacing do not matter).
enum WireContract {
    @discardableResult
    static func roundTrip<Wire: Codable & Equatable>(_ type: Wire.Type, _ literal: String) throws -> Wire {
        let value = try JSONDecoder().decode(Wire.self, from: Data(literal.utf8))
        let encoded = try JSONEncoder().encode(value)
        #expect(try parsed(encoded) == parsed(Data(literal.utf8)), "\(Wire.self) does not encode back to the literal")
        #expect(try JSONDecoder().decode(Wire.self, from: encoded) == value)
        return value
    }

    static func parsed(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
