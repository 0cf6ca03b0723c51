/// One request's progress on its connection, from its head to its answer, as a value. Each
/// call libmicrohttpd makes becomes an event; what the event returns says what the transport
/// must do. It makes no MHD call and touches no socket or file, so every transition is tested
/// on its own (`ExchangeStateTests`), as AsyncHTTPClient tests its connection's state machine.
///
/// ```
/// head ─┬─ refuseNow ───────────────────────────────────────────────┐
///       ├─ admitting ── admissionDecided ─┐                          │
///       └─ receiving ◀────────────────────┘── chunk … ── complete ─┬─ responded
///            └─ (chunked body past its limit) answeredEarly ─ lingering ─ cut
///                                                     handlerStarted ─ waitingForHandler ─┘
/// ```
struct ExchangeState: Equatable {
    struct Limits: Equatable {
        /// The route's body limit.
        var body: Int
        /// How much past the limit a refused body is still read and dropped before the connection is cut.
        var drain: Int
        /// What may be held in memory while an upload's admission is pending.
        var held: Int
        /// How long a refused body is still read after its early answer.
        var lingerNanoseconds: UInt64
    }

    /// Why a body does not reach its handler. The first reason found is the answer.
    enum Refusal: Equatable {
        case tooLarge
        case partLimitExceeded
        case malformedMultipart
        /// Found in the head (or by an upload's admission) and answered once the body is read.
        case screened(HTTPError)
    }

    enum Phase: Equatable {
        /// An upload's head is being checked, its connection suspended, before its body is read.
        case admitting
        case receiving
        /// The async handler runs; the connection is suspended until it answers.
        case waitingForHandler
        case responded
        /// A 413 was written while the body still arrived: read and dropped until `until`
        /// (uptime nanoseconds), then cut, without a second answer.
        case lingering(until: UInt64)
    }

    let limits: Limits
    /// The body's `Content-Length`, when it announced one.
    let announcedLength: Int?
    private(set) var phase: Phase = .receiving
    private(set) var refusal: Refusal?
    /// Body bytes read so far, kept or dropped.
    private(set) var received = 0
    /// Body bytes kept in the request or handed to the multipart parser.
    private(set) var taken = 0
    /// Body bytes MHD handed over while the admission was pending.
    private(set) var held = 0
    private(set) var parsesMultipart = false
    /// Set when an admitted upload resumes: MHD calls again as it did for the head, with no
    /// body yet, and that call is not the body's end.
    private var resumedAfterAdmission = false

    init(limits: Limits, announcedLength: Int?) {
        self.limits = limits
        self.announcedLength = announcedLength
    }

    // MARK: The head

    enum HeadAction: Equatable {
        /// Read the body (kept, or dropped when a refusal is already decided).
        case readBody
        /// Answer before the body and close: its framing could be read two ways, or the client
        /// waits for a `100 Continue`, or it is announced too large to drain.
        case refuseNow(HTTPError)
    }

    /// The head's facts: its announced length and the screening's verdict on it.
    mutating func head(announcesBody: Bool, expectsContinue: Bool, screening: HTTPError?) -> HeadAction {
        if let length = announcedLength, length > limits.body {
            if expectsContinue || length > limits.body + limits.drain { return .refuseNow(.payloadTooLarge) }
            refusal = .tooLarge
        }
        guard let screening else { return .readBody }
        // One Host read two ways could route the request elsewhere than a proxy in front did.
        if screening.code == "invalid_header" || screening.code == "invalid_host" { return .refuseNow(screening) }
        if announcesBody, expectsContinue { return .refuseNow(screening) }
        refuse(.screened(screening))
        return .readBody
    }

    /// A multipart parser takes the body's bytes from now on.
    mutating func multipartParserStarted() {
        if refusal == nil { parsesMultipart = true }
    }

    /// The multipart body is malformed (or its parser could not start): the parser gets no more.
    mutating func multipartFailed() { refuse(.malformedMultipart) }

    /// A part passed its size or count limit.
    mutating func partLimitHit() { refuse(.partLimitExceeded) }

    // MARK: An upload's admission

    /// The upload's head goes to its route's check; the body waits.
    mutating func admissionStarted() {
        guard refusal == nil, phase == .receiving else { return }
        phase = .admitting
    }

    /// The route's verdict on the upload's head.
    mutating func admissionDecided(_ verdict: HTTPError?) {
        guard phase == .admitting else { return }
        if let verdict { refuse(.screened(verdict)) }
        phase = .receiving
        resumedAfterAdmission = true
    }

    // MARK: The body

    enum ChunkAction: Equatable {
        /// Keep it in the request's body.
        case append
        /// Hand it to the multipart parser.
        case feedMultipart
        /// The admission is pending: keep it aside until the verdict, then replay it.
        case hold
        /// Read and dropped: the body is refused, or the request already answered.
        case drop
        /// The body just passed its limit: drop what was kept (parts, files), read on and drop.
        case discardBody
        /// As `discardBody`, and answer now: a chunked body gave no length to refuse up front.
        case discardBodyAndAnswerEarly
        /// Stop reading: the connection is cut (a flood far past the limit, or the linger is over).
        case cut
    }

    /// A call with `count` (> 0) body bytes, at `now` (uptime nanoseconds).
    mutating func chunk(_ count: Int, now: UInt64) -> ChunkAction {
        switch phase {
        case .admitting:
            held += count
            return held <= limits.held ? .hold : .cut
        case .receiving:
            resumedAfterAdmission = false
            return take(count)
        case .lingering(let until):
            received += count
            return now < until && received <= limits.body + limits.drain ? .drop : .cut
        case .waitingForHandler, .responded:
            return .drop
        }
    }

    /// The bytes held during the admission, replayed once it is decided.
    mutating func replayHeld() -> ChunkAction {
        let count = held
        held = 0
        return count == 0 ? .drop : take(count)
    }

    private mutating func take(_ count: Int) -> ChunkAction {
        received += count
        if refusal != nil { return received <= limits.body + limits.drain ? .drop : .cut }
        if taken + count > limits.body {
            refusal = .tooLarge
            taken = 0
            // A multipart body's bytes are counted as they are parsed; it is answered at its end.
            return announcedLength != nil || parsesMultipart ? .discardBody : .discardBodyAndAnswerEarly
        }
        taken += count
        return parsesMultipart ? .feedMultipart : .append
    }

    enum QuietCall: Equatable {
        /// More body is to come.
        case awaitBody
        /// The body is all here: `complete()` says what answers it.
        case bodyComplete
        /// The handler has answered: queue its response.
        case answerFromHandler
        /// Nothing to do on this call.
        case idle
        case cut
    }

    /// A call with no body bytes; `handlerAnswered` when the handler's response is waiting.
    mutating func quietCall(handlerAnswered: Bool) -> QuietCall {
        switch phase {
        case .admitting: return .idle
        case .receiving:
            if resumedAfterAdmission {
                resumedAfterAdmission = false
                if received < (announcedLength ?? 1) { return .awaitBody }
            }
            return .bodyComplete
        case .waitingForHandler: return handlerAnswered ? .answerFromHandler : .idle
        case .responded: return .idle
        // At the refused body's end the connection is closed at once.
        case .lingering: return .cut
        }
    }

    enum Completion: Equatable {
        /// The body was refused: this is the answer, closing the connection when `closing`.
        case refuse(HTTPError, closing: Bool)
        /// Screen the body and hand the request to its handler.
        case handle
    }

    /// The body's end (its multipart parser, if any, closed): its refusal or its handler.
    func complete() -> Completion {
        switch refusal {
        case nil: return .handle
        case .tooLarge, .partLimitExceeded: return .refuse(.payloadTooLarge, closing: true)
        case .malformedMultipart:
            return .refuse(.badRequest("malformed multipart body", code: "invalid_multipart"), closing: false)
        case .screened(let error): return .refuse(error, closing: false)
        }
    }

    // MARK: The answer

    mutating func handlerStarted() { phase = .waitingForHandler }

    mutating func responded() { phase = .responded }

    /// The early 413 is written; the rest of the body is dropped for a while.
    mutating func answeredEarly(now: UInt64) { phase = .lingering(until: now + limits.lingerNanoseconds) }

    private mutating func refuse(_ reason: Refusal) {
        if refusal == nil { refusal = reason }
        parsesMultipart = false
    }
}
