import Foundation
import GatehouseHTTP
import GatehouseFormats

/// An example value of a document, encoded by the wire type it stands for, so a document can
/// only show what the server and the SDK actually write. `roundTrip` decodes the example's
/// bytes with that type and encodes them again: tests check that nothing is lost or added.
struct Example: Sendable {
    let value: JSONValue
    let wireType: String
    let roundTrip: @Sendable () throws -> JSONValue
    /// Whether the replies' encoder (`SortedJSONEncoder`) writes the very bytes Foundation's does.
    let encodersAgree: @Sendable () throws -> Bool

    static func wire<T: Codable & Sendable>(_ value: T) -> Example {
        // Wire values built in code always encode; a failure here is a programming error.
        let data = try! JSONEncoder.gatehouse.encode(value)
        let json = try! JSONDecoder().decode(JSONValue.self, from: data)
        return Example(
            value: json, wireType: String(reflecting: T.self),
            roundTrip: {
                let decoded = try JSONDecoder().decode(T.self, from: data)
                return try JSONDecoder().decode(JSONValue.self, from: JSONEncoder.gatehouse.encode(decoded))
            },
            encodersAgree: { try SortedJSONEncoder.encode(value) == data })
    }
}

extension Example {
    /// A body the server reads field by field, with no wire type of its own (OTP application
    /// settings, a template, a balance change): the example is its literal JSON.
    static func literal(_ object: [String: JSONValue]) -> Example { wire(object) }
}
