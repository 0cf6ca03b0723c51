import CMicroHTTPD
import Foundation

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
        if exchange.phase == .admitting, !admitted(exchange) {
            // MHD may hand over what it had already read with the head before the suspension
            // holds: kept in memory, bounded by MHD's connection buffer, until the verdict.
            if uploadSize.pointee > 0 {
                exchange.heldBody.append(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee).bindMemory(to: UInt8.self))
                uploadSize.pointee = 0
            }
            return exchange.heldBody.count <= configuration.maxHeaderSize * 4 ? MHD_Result.YES : MHD_Result.NO
        }
        switch exchange.phase {
        case .responded where exchange.answeredEarly:
            // Read and dropped for a while after the early 413, then closed without a second
            // answer; at the body's end at once.
            guard uploadSize.pointee > 0 else { return MHD_Result.NO }
            exchange.received += uploadSize.pointee
            uploadSize.pointee = 0
            let lingering = DispatchTime.now().uptimeNanoseconds < exchange.lingerUntil
            return lingering && exchange.received <= exchange.bodyLimit + drainAllowance(exchange) ? MHD_Result.YES : MHD_Result.NO
        case .receiving, .admitting:
            if !exchange.heldBody.isEmpty {
                let held = exchange.heldBody
                exchange.heldBody = Data()
                guard held.withUnsafeBytes({ receive(exchange, bytes: $0) }) else { return MHD_Result.NO }
            }
            if uploadSize.pointee > 0 {
                let accepted = receive(exchange, bytes: UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee))
                uploadSize.pointee = 0
                exchange.resumedAfterAdmission = false
                return accepted ? MHD_Result.YES : MHD_Result.NO
            }
            if exchange.resumedAfterAdmission {
                exchange.resumedAfterAdmission = false
                if exchange.received < (exchange.announcedLength ?? 1) { return MHD_Result.YES }
            }
            return bodyComplete(exchange)
        case .ready:
            let response = exchange.pending ?? HTTPError.internalError.response(context: exchange.routed.context)
            exchange.pending = nil
            return queue(response, for: exchange)
        case .waitingForHandler, .responded:
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
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
        let exchange = Exchange(
            connection: connection, started: started, routed: routed, request: request,
            bodyLimit: uploads?.maxBytes ?? routed.maxBodySize ?? configuration.maxBodySize)
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
        let length = headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: CharacterSet.whitespaces)) }
        let announcesBody = (length ?? 0) > 0 || headers["Transfer-Encoding"] != nil
        let expectsContinue = headers["Expect"]?.lowercased() == "100-continue"
        if let length, length > exchange.bodyLimit {
            if expectsContinue || length > exchange.bodyLimit + drainAllowance(exchange) {
                return refuseNow(.payloadTooLarge, exchange)
            }
            exchange.bodyTooLarge = true
        }
        exchange.refusal = RequestScreening.head(request, version: versionText)
            ?? (announcesBody && uploads == nil ? RequestScreening.mediaType(headers["Content-Type"], kind: routed.bodyKind) : nil)
        // One Host read two ways could route the request elsewhere than a proxy in front did.
        if let refusal = exchange.refusal, refusal.code == "invalid_header" || refusal.code == "invalid_host" { return refuseNow(refusal, exchange) }
        if let refusal = exchange.refusal, announcesBody, expectsContinue { return refuseNow(refusal, exchange) }
        // Even a request without a body is answered on MHD's next call: a response queued
        // before MHD has seen the whole request makes it close the connection.
        if exchange.refusal == nil, !exchange.bodyTooLarge, isMultipart(headers) {
            exchange.multipart = MultipartForm()
            exchange.maxPartSize = uploads == nil ? configuration.maxPartSize : .max
            exchange.maxParts = configuration.maxParts
            exchange.postProcessor = MHD_create_post_processor(
                connection, 64 * 1024, collectPart, Unmanaged.passUnretained(exchange).toOpaque())
            // RFC 2046 §5.1.1: a boundary is 1 to 70 characters.
            if exchange.postProcessor == nil || (Self.boundary(headers["Content-Type"])?.count ?? 0) > 70 { exchange.bodyInvalid = true }
        }
        if let uploads, exchange.refusal == nil, !exchange.bodyTooLarge { admit(exchange, uploads, headers) }
        return MHD_Result.YES
    }

    /// Holds an upload's body back (the connection suspended, so MHD reads none of it) until
    /// its route has looked at the head; a refusal becomes the answer and the body is dropped.
    private func admit(_ exchange: Exchange, _ uploads: UploadPolicy, _ headers: HTTPHeaders) {
        exchange.phase = .admitting
        track(exchange)
        MHD_suspend_connection(exchange.connection)
        exchange.announcedLength = headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        attach(exchange, task: Task {
            // Only the verdict crosses threads (under its lock); the MHD thread applies it.
            let verdict = await uploads.admits(headers)
            exchange.admission.withLock { $0 = .decided(verdict) }
            MHD_resume_connection(exchange.connection)
        })
    }

    /// Applies an admitted upload's verdict once it has come; false while it is pending.
    private func admitted(_ exchange: Exchange) -> Bool {
        guard case .decided(let refusal) = exchange.admission.withLock({ $0 }) else { return false }
        if let refusal { exchange.refusal = refusal }
        exchange.phase = .receiving
        exchange.resumedAfterAdmission = true
        return true
    }

    /// Answers before the body, closing the connection: MHD cannot read on after a response.
    private func refuseNow(_ error: HTTPError, _ exchange: Exchange) -> MHD_Result {
        var response = responder.renderError(error, path: exchange.request.rawPath, context: exchange.routed.context)
        response.headers.set("Connection", "close")
        return queue(response, for: exchange)
    }

    /// Takes one chunk of body; false cuts the connection (a flood far past the limit).
    private func receive(_ exchange: Exchange, bytes: UnsafeRawBufferPointer) -> Bool {
        exchange.received += bytes.count
        if let watched = exchange.watched { clientDeadlines.bodyReceived(watched, bytes: bytes.count) }
        if exchange.bodyTooLarge || exchange.bodyInvalid || exchange.refusal != nil {
            // Keep reading, and dropping, so the client can read our answer; give up on floods.
            return exchange.received <= exchange.bodyLimit + drainAllowance(exchange)
        }
        let total = exchange.request.body.count + bytes.count
        if total > exchange.bodyLimit {
            exchange.bodyTooLarge = true
            exchange.request.body = Data()
            exchange.multipart = nil
            exchange.removeUploads()
            // A chunked body gave no length to refuse up front: it is answered now, not at its end.
            return exchange.announcedLength != nil || answerEarly(exchange)
        }
        if let processor = exchange.postProcessor {
            // The post processor keeps the parts; the raw bytes only count against the limit.
            exchange.receivedMultipartBytes += bytes.count
            if exchange.receivedMultipartBytes > exchange.bodyLimit {
                exchange.bodyTooLarge = true
                exchange.removeUploads()
                return true
            }
            if MHD_post_process(processor, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) != MHD_Result.YES {
                exchange.bodyInvalid = true
            }
            return true
        }
        exchange.request.body.append(bytes.bindMemory(to: UInt8.self))
        return true
    }

    private func bodyComplete(_ exchange: Exchange) -> MHD_Result {
        if let watched = exchange.watched { clientDeadlines.bodyComplete(watched) }
        let context = exchange.routed.context
        if let processor = exchange.postProcessor {
            exchange.postProcessor = nil
            // A body refused while admitted was never fed to the processor: its refusal is the answer.
            if MHD_destroy_post_processor(processor) != MHD_Result.YES, !exchange.bodyTooLarge, !exchange.partLimitExceeded,
                exchange.refusal == nil
            {
                exchange.bodyInvalid = true
            }
            exchange.closeOpenFile()
        }
        if exchange.bodyTooLarge || exchange.partLimitExceeded {
            var response = responder.renderError(.payloadTooLarge, path: exchange.request.rawPath, context: context)
            response.headers.set("Connection", "close")
            return queue(response, for: exchange)
        }
        if exchange.bodyInvalid {
            let error = HTTPError.badRequest("malformed multipart body", code: "invalid_multipart")
            return queue(responder.renderError(error, path: exchange.request.rawPath, context: context), for: exchange)
        }
        if let refusal = exchange.refusal {
            return queue(responder.renderError(refusal, path: exchange.request.rawPath, context: context), for: exchange)
        }
        switch RequestScreening.body(exchange.request.body, kind: exchange.routed.bodyKind, maxDepth: configuration.maxJSONDepth) {
        case .failure(let refusal): return queue(responder.renderError(refusal, path: exchange.request.rawPath, context: context), for: exchange)
        case .success(let tree): exchange.request.json = tree
        }
        exchange.request.multipart = exchange.multipart
        if exchange.routed.isInline {
            return queue(responder.respondInline(exchange.routed, request: exchange.request), for: exchange)
        }
        exchange.phase = .waitingForHandler
        track(exchange)
        MHD_suspend_connection(exchange.connection)
        let responder = self.responder
        attach(exchange, task: Task {
            let response = await responder.respond(exchange.routed, request: exchange.request)
            exchange.pending = response
            exchange.phase = .ready
            MHD_resume_connection(exchange.connection)
        })
        return MHD_Result.YES
    }

    /// How much of a refused body, past the limit, is read and dropped before the connection is cut.
    private func drainAllowance(_ exchange: Exchange) -> Int {
        max(exchange.bodyLimit, configuration.minDrainBytes)
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
