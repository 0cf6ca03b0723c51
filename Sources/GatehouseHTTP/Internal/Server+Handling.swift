import CMicroHTTPD
import Foundation
import GatehouseFormats

// The request lifecycle on an MHD connection:
// head arrives (first call) -> body chunks -> final call -> response queued,
// with a suspend/resume detour while an async handler runs.
extension Server {
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // The first call finds the target's length the URI log callback left (an odd value).
        guard let raw = slot.pointee, cmhd_is_uri_length(raw) == 0 else {
            let watched = cmhd_socket_context(connection).map { Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue() }
            if let watched { clientDeadlines.headArrived(watched) }
            let head = HeadFacts(connection, method: method, url: url, version: version, target: slot.pointee)
            return begin(connection: connection, url: url, method: method, version: version, head: head, watched: watched, slot: slot)
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if exchange.state.phase == .admitting {
            if let verdict = exchange.mailbox.admissionVerdict {
                exchange.state.admissionDecided(verdict)
                guard replayHeld(exchange) else { return MHD_Result.NO }
            } else if uploadSize.pointee == 0 {
                return MHD_Result.YES
            }
        }
        guard uploadSize.pointee > 0 else {
            switch exchange.state.quietCall(handlerAnswered: exchange.mailbox.hasResponse) {
            case .awaitBody, .idle: return MHD_Result.YES
            case .cut: return MHD_Result.NO
            case .bodyComplete: return bodyComplete(exchange)
            case .answerFromHandler:
                let response = exchange.mailbox.takeResponse() ?? HTTPError.internalError.response(context: exchange.routed.context)
                return queue(response, for: exchange)
            }
        }
        let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
        uploadSize.pointee = 0
        return receive(exchange, bytes: bytes, action: exchange.state.chunk(bytes.count, now: DispatchTime.now().uptimeNanoseconds))
            ? MHD_Result.YES : MHD_Result.NO
    }

    private func begin(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        head: HeadFacts, watched: WatchedConnection?, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let started = DispatchTime.now().uptimeNanoseconds
        let (requestID, stopping) = begin()
        let headers = collect(connection, MHD_ValueKind.HEADER_KIND)
        let peer = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            cmhd_client_address(connection, buffer.baseAddress, 64)
            return String(cString: buffer.baseAddress!)
        }
        let client = addresses.resolve(peer: peer, forwardedFor: headers["X-Forwarded-For"])
        let rawPath = url.map { String(cString: $0) } ?? "/"
        let query = collect(connection, MHD_ValueKind.GET_ARGUMENT_KIND).fields.map {
            (name: Request.percentDecoded($0.name, plusIsSpace: true), value: Request.percentDecoded($0.value, plusIsSpace: true))
        }
        let request = Request(
            method: HTTPMethod(token: method.map { String(cString: $0) } ?? "GET"),
            path: Request.percentDecoded(rawPath), rawPath: rawPath, query: query, headers: headers)
        let routed = responder.route(method: request.method, path: rawPath, requestID: requestID, clientAddress: client)
        // A route that takes files reads a multipart body to its own, larger limit.
        let uploads = isMultipart(headers) ? routed.uploads : nil
        let bodyLimit = uploads?.maxBytes ?? routed.maxBodySize ?? configuration.maxBodySize
        let limits = ExchangeState.Limits(
            body: bodyLimit, drain: max(bodyLimit, configuration.minDrainBytes),
            held: configuration.maxHeaderSize * 4, lingerNanoseconds: Self.lingerNanoseconds)
        let length = headers["Content-Length"].flatMap { Int($0.trimmingWhitespace) }
        let exchange = Exchange(
            connection: connection, started: started, routed: routed, request: request,
            state: ExchangeState(limits: limits, announcedLength: length))
        exchange.uploads = uploads
        exchange.watched = watched
        slot.pointee = Unmanaged.passRetained(exchange).toOpaque()

        if stopping {
            var response = responder.renderError(
                HTTPError(status: 503, code: "shutting_down", message: "server is shutting down"), path: rawPath, context: routed.context)
            response.headers.set("Connection", "close")
            return queue(response, for: exchange)
        }
        let versionText = version.map { String(cString: $0) } ?? ""
        // A head a strict reader would refuse, or read otherwise than MHD did: answered and closed
        // before its body, whose framing could be read two ways too.
        if let refusal = RequestScreening.strictHead(head, headers: headers, version: versionText, limits: configuration) {
            return refuseNow(refusal, exchange)
        }
        // A refused body the client is about to send is read and dropped, so that it reads its
        // answer instead of a reset (RFC 9112 §9.6); one it would only send after a
        // `100 Continue`, or one announced too large to drain, is answered at once.
        let announcesBody = (length ?? 0) > 0 || headers["Transfer-Encoding"] != nil
        let screening = RequestScreening.head(request, version: versionText)
            ?? (announcesBody && uploads == nil ? RequestScreening.mediaType(headers["Content-Type"], kind: routed.bodyKind) : nil)
        let expectsContinue = headers["Expect"]?.lowercased() == "100-continue"
        if case .refuseNow(let refusal) = exchange.state.head(
            announcesBody: announcesBody, expectsContinue: expectsContinue, screening: screening)
        {
            return refuseNow(refusal, exchange)
        }
        // Even a request without a body is answered on MHD's next call: a response queued
        // before MHD has seen the whole request makes it close the connection.
        if exchange.state.refusal == nil, isMultipart(headers) {
            exchange.multipart = MultipartForm()
            exchange.maxPartSize = uploads == nil ? configuration.maxPartSize : .max
            exchange.maxParts = configuration.maxParts
            exchange.postProcessor = MHD_create_post_processor(
                connection, 64 * 1024, collectPart, Unmanaged.passUnretained(exchange).toOpaque())
            exchange.state.multipartParserStarted()
            // RFC 2046 §5.1.1: a boundary is 1 to 70 characters.
            if exchange.postProcessor == nil || (Self.boundary(headers["Content-Type"])?.count ?? 0) > 70 { exchange.state.multipartFailed() }
        }
        if let uploads, exchange.state.refusal == nil { admit(exchange, uploads, headers) }
        return MHD_Result.YES
    }

    /// Holds an upload's body back (the connection suspended, so MHD reads none of it) until
    /// its route has looked at the head; a refusal becomes the answer and the body is dropped.
    private func admit(_ exchange: Exchange, _ uploads: UploadPolicy, _ headers: HTTPHeaders) {
        exchange.state.admissionStarted()
        track(exchange)
        MHD_suspend_connection(exchange.connection)
        let mailbox = exchange.mailbox
        let connection = exchange.connection
        attach(exchange, task: Task {
            // Only the verdict crosses threads (in the mailbox); the MHD thread applies it.
            mailbox.post(verdict: await uploads.admits(headers))
            MHD_resume_connection(connection)
        })
    }

    /// Feeds the bytes held while the admission was pending, now that it is decided.
    private func replayHeld(_ exchange: Exchange) -> Bool {
        let held = exchange.heldBody
        exchange.heldBody = Data()
        let action = exchange.state.replayHeld()
        return held.withUnsafeBytes { receive(exchange, bytes: $0, action: action) }
    }

    /// Answers before the body, closing the connection: MHD cannot read on after a response.
    private func refuseNow(_ error: HTTPError, _ exchange: Exchange) -> MHD_Result {
        var response = responder.renderError(error, path: exchange.request.rawPath, context: exchange.routed.context)
        response.headers.set("Connection", "close")
        return queue(response, for: exchange)
    }

    /// Does what the state said to a chunk of body; false cuts the connection.
    private func receive(_ exchange: Exchange, bytes: UnsafeRawBufferPointer, action: ExchangeState.ChunkAction) -> Bool {
        if action != .hold, let watched = exchange.watched { clientDeadlines.bodyReceived(watched, bytes: bytes.count) }
        switch action {
        case .append:
            exchange.request.body.append(bytes.bindMemory(to: UInt8.self))
        case .feedMultipart:
            // The post processor keeps the parts; the raw bytes only count against the limit.
            guard let processor = exchange.postProcessor else { return true }
            if MHD_post_process(processor, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) != MHD_Result.YES {
                exchange.state.multipartFailed()
            }
        case .hold:
            // MHD may hand over what it had already read with the head before the suspension
            // holds: kept in memory, bounded by MHD's connection buffer, until the verdict.
            exchange.heldBody.append(bytes.bindMemory(to: UInt8.self))
        case .drop:
            break
        case .discardBody:
            discardBody(exchange)
        case .discardBodyAndAnswerEarly:
            discardBody(exchange)
            return answerEarly(exchange)
        case .cut:
            return false
        }
        return true
    }

    private func discardBody(_ exchange: Exchange) {
        exchange.request.body = Data()
        exchange.multipart = nil
        exchange.removeUploads()
    }

    private func bodyComplete(_ exchange: Exchange) -> MHD_Result {
        if let watched = exchange.watched { clientDeadlines.bodyComplete(watched) }
        let context = exchange.routed.context
        if let processor = exchange.postProcessor {
            exchange.postProcessor = nil
            // A body refused before its end was not fed on to the processor: its refusal is the answer.
            if MHD_destroy_post_processor(processor) != MHD_Result.YES { exchange.state.multipartFailed() }
            exchange.closeOpenFile()
        }
        if case .refuse(let error, let closing) = exchange.state.complete() {
            var response = responder.renderError(error, path: exchange.request.rawPath, context: context)
            if closing { response.headers.set("Connection", "close") }
            return queue(response, for: exchange)
        }
        switch RequestScreening.body(exchange.request.body, kind: exchange.routed.bodyKind, maxDepth: configuration.maxJSONDepth) {
        case .failure(let refusal): return queue(responder.renderError(refusal, path: exchange.request.rawPath, context: context), for: exchange)
        case .success(let tree): exchange.request.json = tree
        }
        exchange.request.multipart = exchange.multipart
        if exchange.routed.isInline {
            return queue(responder.respondInline(exchange.routed, request: exchange.request), for: exchange)
        }
        exchange.state.handlerStarted()
        track(exchange)
        MHD_suspend_connection(exchange.connection)
        let (responder, routed, request) = (self.responder, exchange.routed, exchange.request)
        let (mailbox, connection) = (exchange.mailbox, exchange.connection)
        attach(exchange, task: Task {
            mailbox.post(response: await responder.respond(routed, request: request))
            MHD_resume_connection(connection)
        })
        return MHD_Result.YES
    }

    static func boundary(_ contentType: String?) -> Substring? {
        guard let contentType, let range = contentType.range(of: "boundary=", options: .caseInsensitive) else { return nil }
        let value = contentType[range.upperBound...].prefix { $0 != ";" }
        return value.hasPrefix("\"") ? value.dropFirst().prefix { $0 != "\"" } : value
    }

    private func isMultipart(_ headers: HTTPHeaders) -> Bool {
        headers["Content-Type"]?.lowercased().hasPrefix("multipart/form-data") ?? false
    }

    func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> HTTPHeaders {
        var pairs: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &pairs) { pointer in
            _ = MHD_get_connection_values(connection, kind, collectPair, UnsafeMutableRawPointer(pointer))
        }
        return HTTPHeaders(fields: pairs)
    }

    /// Called by MHD when the request is over, answered or not.
    func completed(_ exchange: Exchange) {
        if let processor = exchange.postProcessor {
            MHD_destroy_post_processor(processor)
            exchange.postProcessor = nil
        }
        exchange.stream?.cancel()
        exchange.removeUploads()
        end(exchange)
    }
}
