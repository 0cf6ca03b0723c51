import Foundation
import GatehouseHTTP
import GatehouseFormats

/// Decoding for Gatehouse's own APIs: the body must be a JSON object whose keys are all
/// known, so a misspelt field is an error instead of being silently ignored. The tree is the
/// one the edge read; nothing parses the body again.
enum StrictJSON {
    /// What an integer field takes unless it says otherwise: a count or a number of seconds,
    /// as PostgreSQL's `integer` holds it.
    static let counts = 0...Int(Int32.max)

    /// `fields`: the members the route takes (a type shared by several routes may have more);
    /// nil takes the members `T` reads, at every depth. `integers`: top-level fields that must
    /// be exact integers in their range (see `Body.integer`), so the refusal names the range.
    /// `emptyIsObject`: an empty body reads as `{}` (an update that changes nothing).
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, fields: Set<String>? = nil, integers: [String: ClosedRange<Int>] = [:], emptyIsObject: Bool = false
    ) throws -> T {
        let body = try Body(request, fields: fields, emptyIsObject: emptyIsObject)
        for (name, range) in integers.sorted(by: { $0.key < $1.key }) where body.members[name] != .null {
            _ = try body.integer(name, in: range)
        }
        do {
            return try JSONBodyDecoder(unknownKeys: .refuse, nulls: .onlyWhereNullable).decode(T.self, from: .object(body.members))
        } catch {
            throw HTTPError(error)
        }
    }

    /// A request's members.
    struct Body {
        let members: [String: JSONValue]

        /// `emptyIsObject`: an empty body reads as `{}` (an update that changes nothing).
        init(_ request: Request, fields: Set<String>?, emptyIsObject: Bool = false) throws {
            let tree: JSONValue
            do { tree = try request.jsonTree(emptyIsObject: emptyIsObject) } catch { throw HTTPError(error) }
            guard case .object(let members) = tree else {
                throw HTTPError.badRequest("body must be a JSON object", code: "invalid_body")
            }
            if let fields, let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
                throw HTTPError.badRequest("unknown field: \(unknown)", code: "unknown_field")
            }
            self.members = members
        }

        /// An integer member, read from its digits: nil when absent; anything but a number
        /// that is exactly an integer in `range` (a string, `null`, `1.5`, `0.9999999999999999999`,
        /// `9223372036854775807`) is refused with a message naming the range.
        func integer(_ name: String, in range: ClosedRange<Int> = StrictJSON.counts) throws -> Int? {
            guard let value = members[name] else { return nil }
            guard case .number(let number) = value, let exact = number.exactInteger, range.contains(exact) else {
                throw HTTPError.badRequest("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)", code: "invalid_body")
            }
            return exact
        }
    }
}
