import Testing

@testable import GatehouseHTTP

/// The exchange's state machine, event by event, without a socket: each test feeds the events
/// libmicrohttpd would deliver and checks the action the transport is told to take.
@Suite struct ExchangeStateTests {
    let limits = ExchangeState.Limits(body: 100, drain: 1_000, held: 50, lingerNanoseconds: 2_000)

    func state(length: Int? = nil) -> ExchangeState { ExchangeState(limits: limits, announcedLength: length) }

    @Test func aBodyWithinItsLimitIsKeptAndHandled() {
        var exchange = state(length: 10)
        #expect(exchange.head(announcesBody: true, expectsContinue: false, screening: nil) == .readBody)
        #expect(exchange.chunk(6, now: 0) == .append)
        #expect(exchange.chunk(4, now: 0) == .append)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .handle)
        exchange.handlerStarted()
        #expect(exchange.phase == .waitingForHandler)
        #expect(exchange.quietCall(handlerAnswered: false) == .idle)
        #expect(exchange.quietCall(handlerAnswered: true) == .answerFromHandler)
        exchange.responded()
        #expect(exchange.chunk(3, now: 0) == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .idle)
    }

    @Test func aLengthPastTheDrainIsRefusedBeforeItsBody() {
        var exchange = state(length: 1_101)
        #expect(exchange.head(announcesBody: true, expectsContinue: false, screening: nil) == .refuseNow(.payloadTooLarge))
    }

    @Test func aLengthPastTheLimitWaitingForContinueIsRefusedAtOnce() {
        var exchange = state(length: 101)
        #expect(exchange.head(announcesBody: true, expectsContinue: true, screening: nil) == .refuseNow(.payloadTooLarge))
    }

    @Test func aDrainableLengthPastTheLimitIsReadDroppedAndAnswered413Closing() {
        var exchange = state(length: 500)
        #expect(exchange.head(announcesBody: true, expectsContinue: false, screening: nil) == .readBody)
        #expect(exchange.refusal == .tooLarge)
        #expect(exchange.chunk(500, now: 0) == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .refuse(.payloadTooLarge, closing: true))
    }

    @Test func aRefusedBodyFarPastTheDrainCutsTheConnection() {
        var exchange = state(length: 500)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        #expect(exchange.chunk(1_100, now: 0) == .drop)
        #expect(exchange.chunk(1, now: 0) == .cut)
    }

    @Test func aHeadRefusalIsAnsweredAfterTheBodyUnlessItConcernsFraming() {
        let unsupported = HTTPError(status: 415, code: "unsupported_media_type", message: "x")
        var exchange = state(length: 5)
        #expect(exchange.head(announcesBody: true, expectsContinue: false, screening: unsupported) == .readBody)
        #expect(exchange.chunk(5, now: 0) == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .refuse(unsupported, closing: false))

        var waiting = state(length: 5)
        #expect(waiting.head(announcesBody: true, expectsContinue: true, screening: unsupported) == .refuseNow(unsupported))

        let host = HTTPError(status: 400, code: "invalid_host", message: "x")
        var ambiguous = state()
        #expect(ambiguous.head(announcesBody: false, expectsContinue: false, screening: host) == .refuseNow(host))
    }

    @Test func aChunkedBodyPassingItsLimitIsAnsweredEarlyThenLingersAndIsCut() {
        var exchange = state()
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        #expect(exchange.chunk(60, now: 0) == .append)
        #expect(exchange.chunk(60, now: 0) == .discardBodyAndAnswerEarly)
        exchange.answeredEarly(now: 1_000)
        #expect(exchange.phase == .lingering(until: 3_000))
        #expect(exchange.chunk(10, now: 2_999) == .drop)
        #expect(exchange.chunk(10, now: 3_000) == .cut)

        var ended = state()
        _ = ended.head(announcesBody: true, expectsContinue: false, screening: nil)
        _ = ended.chunk(101, now: 0)
        ended.answeredEarly(now: 0)
        #expect(ended.quietCall(handlerAnswered: false) == .cut)
    }

    @Test func aLingerStopsAtTheDrainEvenBeforeItsTime() {
        var exchange = state()
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        _ = exchange.chunk(101, now: 0)
        exchange.answeredEarly(now: 0)
        #expect(exchange.chunk(999, now: 1) == .drop)
        #expect(exchange.chunk(1, now: 1) == .cut)
    }

    @Test func aMultipartBodyIsFedToItsParserAndItsFirstFailureIsTheAnswer() {
        var exchange = state(length: 80)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.multipartParserStarted()
        #expect(exchange.chunk(40, now: 0) == .feedMultipart)
        exchange.partLimitHit()
        exchange.multipartFailed()
        #expect(exchange.chunk(40, now: 0) == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .refuse(.payloadTooLarge, closing: true))

        var malformed = state(length: 80)
        _ = malformed.head(announcesBody: true, expectsContinue: false, screening: nil)
        malformed.multipartParserStarted()
        malformed.multipartFailed()
        #expect(malformed.chunk(80, now: 0) == .drop)
        guard case .refuse(let error, closing: false) = malformed.complete() else {
            Issue.record("a malformed multipart body is answered without closing")
            return
        }
        #expect(error.code == "invalid_multipart")
    }

    @Test func aMultipartBodyPastItsLimitIsDiscardedAndAnsweredAtItsEnd() {
        var exchange = state()
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.multipartParserStarted()
        #expect(exchange.chunk(100, now: 0) == .feedMultipart)
        #expect(exchange.chunk(1, now: 0) == .discardBody)
        #expect(exchange.chunk(10, now: 0) == .drop)
        #expect(exchange.complete() == .refuse(.payloadTooLarge, closing: true))
    }

    @Test func anUploadsBodyIsHeldUntilItsAdmissionThenReplayed() {
        var exchange = state(length: 30)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.admissionStarted()
        #expect(exchange.phase == .admitting)
        #expect(exchange.quietCall(handlerAnswered: false) == .idle)
        #expect(exchange.chunk(20, now: 0) == .hold)
        exchange.admissionDecided(nil)
        #expect(exchange.phase == .receiving)
        #expect(exchange.replayHeld() == .append)
        // The call MHD makes on resuming is not the body's end while the body is still short.
        #expect(exchange.quietCall(handlerAnswered: false) == .awaitBody)
        #expect(exchange.chunk(10, now: 0) == .append)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .handle)
    }

    @Test func anUploadRefusedAtAdmissionDropsItsBodyAndAnswersTheRefusal() {
        let denied = HTTPError(status: 401, code: "unauthorized", message: "x")
        var exchange = state(length: 30)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.admissionStarted()
        exchange.admissionDecided(denied)
        #expect(exchange.replayHeld() == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .awaitBody)
        #expect(exchange.chunk(30, now: 0) == .drop)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
        #expect(exchange.complete() == .refuse(denied, closing: false))
    }

    @Test func tooMuchHeldDuringAnAdmissionCutsTheConnection() {
        var exchange = state(length: 90)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.admissionStarted()
        #expect(exchange.chunk(50, now: 0) == .hold)
        #expect(exchange.chunk(1, now: 0) == .cut)
    }

    @Test func anAlreadyRefusedUploadIsNotAdmitted() {
        var exchange = state(length: 500)
        _ = exchange.head(announcesBody: true, expectsContinue: false, screening: nil)
        exchange.admissionStarted()
        #expect(exchange.phase == .receiving)
        exchange.admissionDecided(nil)
        #expect(exchange.quietCall(handlerAnswered: false) == .bodyComplete)
    }
}
