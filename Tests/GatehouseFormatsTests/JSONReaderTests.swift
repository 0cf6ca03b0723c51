import Foundation
import Testing
import GatehouseFormats

@Suite struct JSONReaderTests {
    func parse(_ text: String) throws(JSONReadError) -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    func refusal(_ text: String) -> JSONReadError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsWhatJSONDecoderReads() throws {
        let text = #"{"a":[1,-2.5e3,true,false,null,"x\"\\\/\n\t\r é 😀 \u00e9\ud83d\ude00"],"b":{},"c":[],"d":0.0001, "e" : "" }"#
        #expect(try parse(text) == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        #expect(try parse("  42 ") == .number(42))
        #expect(try parse(#""top""#) == .string("top"))
        // The check-only pass accepts exactly what the reader accepts.
        try JSONReader.validate(Data(text.utf8))
    }

    @Test func refusesWhatIsNotJSON() {
        for text in ["", "{", "[1,]", "{\"a\":1,}", "{a:1}", "01", "1.", "-", "1e", "+1", "tru", "nul", "[1] x", "\"\u{1}\"", "\"open",
                     #""\x""#, #""\u12""#, #""\ud83d""#, #""\ude00""#, "{\"a\" 1}", "[1 2]", "'a'",
                     "\"tab\there\"", #"{"\ud83dx":1}"#, "{\"a\":1}{}", " "] {
            guard case .malformed? = refusal(text) else {
                Issue.record("\(text.debugDescription) -> \(String(describing: refusal(text)))")
                continue
            }
        }
        var invalidUTF8 = Data("\"a".utf8)
        invalidUTF8.append(contentsOf: [0xC3, 0x28, 0x22])
        #expect(throws: JSONReadError.malformed(offset: 0)) { try JSONValue(parsing: invalidUTF8) }
        #expect(throws: JSONReadError.numberOutOfRange) { try self.parse("1e999") }
        #expect(throws: JSONReadError.numberOutOfRange) { try JSONReader.validate(Data(#"{"name":-1e400}"#.utf8)) }
    }

    @Test func refusesAMemberNamedTwiceAtAnyDepth() {
        #expect(refusal(#"{"name":"first","name":"second"}"#) == .duplicateName("name"))
        // Escapes name the same member: Apple's and most readers compare the decoded names.
        #expect(refusal(#"{"bundleId":"a","b\u0075ndleId":"b"}"#) == .duplicateName("bundleId"))
        #expect(refusal(#"{"a":{"x":1,"x":1}}"#) == .duplicateName("x"))
        #expect(refusal(#"[{"x":1},{"x":1,"y":{"z":[{"q":1,"q":2}]}}]"#) == .duplicateName("q"))
        // The same name in sibling objects is no duplicate; nor is one differing in case.
        #expect(refusal(#"[{"x":1},{"x":2}]"#) == nil)
        #expect(refusal(#"{"a":{"x":1},"b":{"x":1},"X":2,"x":3}"#) == nil)
        // The check-only pass finds them too.
        #expect(throws: JSONReadError.duplicateName("k")) { try JSONReader.validate(Data(#"{"k":1,"k":2}"#.utf8)) }
    }

    @Test func refusesControlCharactersInAnyString() throws {
        for text in [#""a\u0000b""#, #"{"k\u0000":1}"#, #""\u001f""#, #""\b""#, #""\f""#, #""\u007f""#, #""\u0085""#, "\"\u{7F}\"", "\"\u{85}\""] {
            #expect(refusal(text) == .controlCharacter, "\(text)")
        }
        #expect(throws: JSONReadError.controlCharacter) { try JSONReader.validate(Data(#"{"a":["ok","x\u0000"]}"#.utf8)) }
        // Tab, line feed and carriage return are text.
        #expect(try parse(#""a\tb\nc\rd""#) == .string("a\tb\nc\rd"))
        #expect(try parse(#""\u00a0 \u0100""#) == .string("\u{A0} \u{100}"))
    }

    @Test func depthIsLimited() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(refusal(ok) == nil)
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(refusal(deep) == .tooDeep(offset: 32))
        #expect(throws: JSONReadError.tooDeep(offset: 2)) { try JSONValue(parsing: Data("[[[]]]".utf8), maxDepth: 2) }
    }

    /// The work is bounded by the limit, not by the size: a 1 MiB body nested past the limit
    /// is refused at the container that crosses it, without reading on.
    @Test func aDeepMegabyteIsRefusedWithinItsFirstBytes() {
        var text = #"{"signedPayload":"x","a":"#
        while text.utf8.count < 1 << 20 { text += #"{"a":"# }
        for body in [Data(text.utf8), Data((String(repeating: "[", count: 1 << 20)).utf8)] {
            do {
                try JSONReader.validate(body)
                Issue.record("accepted")
            } catch {
                guard case .tooDeep(let offset) = error else { Issue.record("\(error)"); continue }
                #expect(offset < 32 * 5 + 30)
            }
        }
    }

    /// Many subtrees just under the limit: accepted, and every one of them read.
    @Test func wideBodiesUnderTheLimitAreRead() throws {
        let subtree = String(repeating: #"{"a":"#, count: 31) + "1" + String(repeating: "}", count: 31)
        let text = "[" + Array(repeating: subtree, count: 2000).joined(separator: ",") + "]"
        guard case .array(let items) = try parse(text) else { Issue.record("not an array"); return }
        #expect(items.count == 2000)
    }

    @Test(arguments: [
        #"{}"#, #"[]"#, #" {"a":1} "#, #""text""#, #"-0.5e+10"#, #"true"#, #"null"#,
        // The same name in different objects, or as a value, is no duplicate.
        #"{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}"#,
        #"{"bundleId":"x","data":{"bundleId":"y"}}"#,
        // Names that differ only by case, or decode to different characters, are distinct.
        #"{"alg":1,"ALG":2,"a\u006Cg2":3}"#,
        #"{"\ud83d\ude00":1,"\ud83d\ude01":2,"\u00e9":3}"#,
    ])
    func acceptsDistinctNames(_ text: String) {
        #expect(refusal(text) == nil)
    }

    @Test(arguments: [
        (#"{"alg":"ES256","alg":"HS256"}"#, "alg"),
        (#"{"data":{"bundleId":"a","x":1,"bundleId":"b"}}"#, "bundleId"),
        // Escapes decode before names compare, surrogate pairs included.
        (#"{"\ud83d\ude00":1,"😀":2}"#, "😀"),
        (#"{"a\/b":1,"a/b":2}"#, "a/b"),
    ])
    func refusesRepeatedNames(_ text: String, _ name: String) {
        #expect(refusal(text) == .duplicateName(name))
    }

    @Test func manyMembersInOneObject() throws {
        // 100 000 names in one object: one hash set, no pairwise comparison.
        let members = (0..<100_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(refusal("{" + members + "}") == nil)
        #expect(refusal("{" + members + #","k0":0}"#) == .duplicateName("k0"))
    }
}
