import Foundation
import GatehouseHTTP
import GatehouseFormats

/// Decoding for Gatehouse's own APIs: the body must be a JSON object whose keys are all
/// known, so a misspelt field is an error instead of being silently ignored.
enum StrictJSON {
    /// What an integer field takes unless it says otherwise: a count or a number of seconds,
    /// as PostgreSQL's `integer` holds it.
    static let counts = 0...Int(Int32.max)

    /// `integers`: fields that must be exact integers in their range (see `Body.integer`),
    /// checked before the Codable decoding, which would take `0.9999999999999999999` as 1.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, fields: Set<String>, integers: [String: ClosedRange<Int>] = [:]
    ) throws -> T {
        let body = try Body(request, fields: fields)
        for (name, range) in integers.sorted(by: { $0.key < $1.key }) where body.members[name] != .null {
            _ = try body.integer(name, in: range)
        }
        return try request.decode(T.self)
    }

    /// A request's members, with the text of those that are numbers.
    struct Body {
        let members: [String: JSONValue]
        let numbers: [String: String]

        /// `emptyIsObject`: an empty body reads as `{}` (an update that changes nothing).
        init(_ request: Request, fields: Set<String>, emptyIsObject: Bool = false) throws {
            let bytes = request.body.isEmpty && emptyIsObject ? Data("{}".utf8) : request.body
            guard !bytes.isEmpty else { throw HTTPError.badRequest("a JSON body is required", code: "invalid_body") }
            let parsed: (value: JSONValue, numbers: [String: String])
            do {
                parsed = try JSONReader.parseKeepingNumbers(bytes)
            } catch {
                throw HTTPError.refusedJSON(error, maxDepth: JSONReader.defaultMaxDepth)
            }
            guard case .object(let members) = parsed.value else {
                throw HTTPError.badRequest("body must be a JSON object", code: "invalid_body")
            }
            if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
                throw HTTPError.badRequest("unknown field: \(unknown)", code: "unknown_field")
            }
            self.members = members
            self.numbers = parsed.numbers
        }

        /// An integer member, read from its digits: nil when absent; anything but a number
        /// that is exactly an integer in `range` (a string, `null`, `1.5`, `0.9999999999999999999`,
        /// `9223372036854775807`) is refused with a message naming the range.
        func integer(_ name: String, in range: ClosedRange<Int> = StrictJSON.counts) throws -> Int? {
            guard let value = members[name] else { return nil }
            guard case .number = value, let text = numbers[name], let exact = JSONInteger.exact(text), range.contains(exact) else {
                throw HTTPError.badRequest("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)", code: "invalid_body")
            }
            return exact
        }
    }
}
