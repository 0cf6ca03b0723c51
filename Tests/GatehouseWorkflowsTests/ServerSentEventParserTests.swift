import Foundation
import Testing
@testable import GatehouseWorkflows

/// The event-stream rules, fed in the pieces a network might give.
@Suite struct ServerSentEventParserTests {
    func events(_ pieces: [String], lastEventID: String = "") -> [ServerSentEvent] {
        var parser = ServerSentEventParser(lastEventID: lastEventID)
        return pieces.flatMap { parser.feed(Data($0.utf8)) }
    }

    @Test func anEventSplitAnywhereIsOneEvent() {
        let text = "id: 7\nevent: report\ndata: {\"a\":1}\n\n"
        let whole = events([text])
        #expect(whole == [ServerSentEvent(event: "report", data: "{\"a\":1}", lastEventID: "7")])
        for cut in 1..<text.utf8.count {
            let bytes = Array(text.utf8)
            let pieces = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(events(pieces) == whole, "cut at \(cut)")
        }
    }

    @Test func linesEndInCRLFOrCRAndDataLinesJoin() {
        #expect(events(["data: one\r\ndata: two\r\r"]) == [ServerSentEvent(event: "message", data: "one\ntwo", lastEventID: "")])
        #expect(events(["data: x\r", "\n\r\n"]) == [ServerSentEvent(event: "message", data: "x", lastEventID: "")])
    }

    @Test func commentsRetryAndEmptyEventsDispatchNothing() {
        #expect(events([": ping\n\n", "retry: 2000\n\n", "event: ready\n\n"]).isEmpty)
        var parser = ServerSentEventParser()
        _ = parser.feed(Data("retry: 2000\n\n".utf8))
        #expect(parser.retry == 2000)
    }

    @Test func theLastIDPersistsAndANulIDIsIgnored() {
        let found = events(["id: 3\ndata: a\n\n", "data: b\n\n", "id: 4\u{0}\ndata: c\n\n"], lastEventID: "1")
        #expect(found.map(\.lastEventID) == ["3", "3", "3"])
    }

    @Test func anEventCutOffByTheEndIsDropped() {
        #expect(events(["data: done\n\n", "data: half"]).map(\.data) == ["done"])
    }
}
