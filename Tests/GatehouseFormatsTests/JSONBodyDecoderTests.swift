import Foundation
import Testing
import GatehouseFormats

/// The one body decoder: types read from the linear-time reader's tree, integers from their
/// digits, and each refusal located by path.
@Suite struct JSONBodyDecoderTests {
    struct Grant: Decodable, Equatable {
        enum Kind: String, Decodable { case gift, refund }
        struct Limits: Decodable, Equatable { let hourly: Int?; let daily: Int? }
        let credits: Int
        let note: String?
        let kind: Kind?
        let limits: Limits?
        let tags: [String]?
        let extra: [String: JSONValue]?
    }

    let strict = JSONBodyDecoder(unknownKeys: .refuse)
    let lenient = JSONBodyDecoder(unknownKeys: .ignore)

    func refusal<T: Decodable>(_ type: T.Type, _ text: String, _ decoder: JSONBodyDecoder? = nil) -> BodyDecodingError? {
        do {
            _ = try (decoder ?? strict).decode(T.self, from: Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEveryShapeOfTheType() throws {
        let text = #"{"credits":1e2,"note":"hi","kind":"gift","limits":{"hourly":3,"daily":null},"tags":["a","b"],"extra":{"any":{"deep":[1]}}}"#
        let grant = try strict.decode(Grant.self, from: Data(text.utf8))
        #expect(grant.credits == 100 && grant.note == "hi" && grant.kind == .gift && grant.tags == ["a", "b"])
        #expect(grant.limits == Grant.Limits(hourly: 3, daily: nil))
        #expect(grant.extra?["any"] == .object(["deep": .array([.number(1)])]))
        #expect(try strict.decode(Grant.self, from: Data(#"{"credits":5,"note":null}"#.utf8)).note == nil)
    }

    @Test func integersAreExactOrRefused() {
        for text in ["0.9999999999999999999", "1.5", "9223372036854775808", "1e19"] {
            #expect(refusal(Grant.self, #"{"credits":\#(text)}"#) == BodyDecodingError(path: ["credits"], problem: .notInteger), "\(text)")
        }
        struct Small: Decodable { let byte: UInt8 }
        #expect(refusal(Small.self, #"{"byte":256}"#)?.problem == .notInteger)
        #expect(refusal(Small.self, #"{"byte":-1}"#)?.problem == .notInteger)
    }

    @Test func eachRefusalNamesItsPath() {
        #expect(refusal(Grant.self, #"{}"#) == BodyDecodingError(path: ["credits"], problem: .missing))
        #expect(refusal(Grant.self, #"{"credits":null}"#) == BodyDecodingError(path: ["credits"], problem: .missing))
        #expect(refusal(Grant.self, #"{"credits":"5"}"#) == BodyDecodingError(path: ["credits"], problem: .wrongType(expected: .integer)))
        #expect(refusal(Grant.self, #"{"credits":1,"note":7}"#) == BodyDecodingError(path: ["note"], problem: .wrongType(expected: .string)))
        #expect(refusal(Grant.self, #"{"credits":1,"tags":["a",2]}"#) == BodyDecodingError(path: ["tags", "[1]"], problem: .wrongType(expected: .string)))
        #expect(refusal(Grant.self, #"[1]"#) == BodyDecodingError(path: [], problem: .wrongType(expected: .object)))
        #expect(refusal(Grant.self, #"{"credits":1,"kind":"theft"}"#)?.path == ["kind"])
        if case .invalid? = refusal(Grant.self, #"{"credits":1,"kind":"theft"}"#)?.problem {} else { Issue.record("an unknown case is invalid") }
        #expect(refusal(Grant.self, #"{"credits":1,"limits":{"hourly":"x"}}"#)?.field == "limits.hourly")
        #expect(refusal(Grant.self, #"{"credits":"#) == BodyDecodingError(path: [], problem: .unreadable(.malformed(offset: 11))))
    }

    @Test func unknownMembersAreRefusedAtAnyDepthOrIgnored() throws {
        #expect(refusal(Grant.self, #"{"credits":1,"zeta":1,"alpha":2}"#) == BodyDecodingError(path: ["alpha"], problem: .unknownKey))
        #expect(refusal(Grant.self, #"{"credits":1,"limits":{"hourly":1,"weekly":2}}"#) == BodyDecodingError(path: ["limits", "weekly"], problem: .unknownKey))
        let lenientGrant = try lenient.decode(Grant.self, from: Data(#"{"credits":1,"zeta":1,"limits":{"weekly":2}}"#.utf8))
        #expect(lenientGrant.credits == 1 && lenientGrant.limits == Grant.Limits(hourly: nil, daily: nil))
        // A free-form member is taken whole, whatever it holds.
        #expect(refusal(Grant.self, #"{"credits":1,"extra":{"anything":{"at":"all"}}}"#) == nil)
    }

    /// A field read with `try?` that fails leaves no half-read object behind to be called unknown.
    @Test func aFailedOptionalReadLeavesNoUnknownMembers() throws {
        struct Lenient: Decodable {
            let limits: Grant.Limits?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                limits = try? container.decode(Grant.Limits.self, forKey: .limits)
            }
            enum CodingKeys: String, CodingKey { case limits }
        }
        let read = try strict.decode(Lenient.self, from: Data(#"{"limits":{"hourly":"x","daily":1}}"#.utf8))
        #expect(read.limits == nil)
    }

    /// A member named like an index is a member, and an array element whose read failed can
    /// be read again as another type, as `JSONDecoder` allows.
    @Test func membersNamedLikeIndexesAndRetriedElements() throws {
        #expect(refusal([String: Int].self, #"{"0":"x"}"#) == BodyDecodingError(path: ["0"], problem: .wrongType(expected: .integer)))
        struct Either: Decodable, Equatable {
            let values: [String]
            init(values: [String]) { self.values = values }
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                var values: [String] = []
                while !container.isAtEnd {
                    if let number = try? container.decode(Int.self) { values.append(String(number)) } else { values.append(try container.decode(String.self)) }
                }
                self.values = values
            }
        }
        #expect(try strict.decode(Either.self, from: Data(#"[1,"a",2]"#.utf8)) == Either(values: ["1", "a", "2"]))
    }

    /// The decoder walks the tree once: a body nested as deep as the reader allows, and one
    /// with many members, decode without any quadratic cost showing up as a hang.
    @Test func wideAndDeepBodiesDecode() throws {
        let members = (0..<20_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let wide = try lenient.decode([String: Int].self, from: Data("{\(members)}".utf8))
        #expect(wide.count == 20_000 && wide["k19999"] == 19_999)
        let deep = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        #expect(try lenient.decode(JSONValue.self, from: Data(deep.utf8)) != .null)
    }
}
