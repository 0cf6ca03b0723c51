import Foundation

extension Server {
    /// Answers one whole request in process, without a socket: the same router, head and body
    /// screening, body limits, middleware, handler and error rendering as a request on the
    /// listener, counted in flight as one (so `idle()` and shutdown wait for it). For route
    /// tests, as Hummingbird's `.router` test mode; nothing need be listening.
    ///
    /// What only the transport does is not done here, and is tested over the socket: the
    /// framing libmicrohttpd reads and the head checks made on its bytes (`strictHead`), a body
    /// read as it arrives (the early 413, `100 Continue`, slow clients), multipart uploads
    /// (answered 415 here), the access log and metrics. A streamed answer comes back as its
    /// `Response.Body.stream`, unread.
    ///
    /// ```swift
    /// let answer = await app.server.respond(method: "GET", target: "/healthz")
    /// ```
    public func respond(
        method: String, target: String, headers: HTTPHeaders = [:], body: Data = Data(), clientAddress: String = "127.0.0.1"
    ) async -> Response {
        let (requestID, _) = begin()
        defer { ended() }
        let rawPath = String(target.prefix { $0 != "?" })
        var request = Request(
            method: HTTPMethod(token: method), path: Request.percentDecoded(rawPath), rawPath: rawPath,
            query: Self.queryArguments(target.dropFirst(rawPath.count + 1)), headers: headers, body: body)
        let client = addresses.resolve(peer: clientAddress, forwardedFor: headers["X-Forwarded-For"])
        let routed = responder.route(method: request.method, path: rawPath, requestID: requestID, clientAddress: client)
        if routed.immediate != nil { return responder.respondInline(routed, request: request) }
        func refuse(_ error: HTTPError) -> Response { responder.renderError(error, path: rawPath, context: routed.context) }
        if let refusal = RequestScreening.head(request, version: "HTTP/1.1") { return refuse(refusal) }
        if headers["Content-Type"]?.lowercased().hasPrefix("multipart/form-data") == true {
            return refuse(HTTPError(status: 415, code: "unsupported_media_type", message: "multipart bodies are read only over the socket"))
        }
        if !body.isEmpty, let refusal = RequestScreening.mediaType(headers["Content-Type"], kind: routed.bodyKind) { return refuse(refusal) }
        if body.count > routed.maxBodySize ?? configuration.maxBodySize { return refuse(.payloadTooLarge) }
        switch RequestScreening.body(body, kind: routed.bodyKind, maxDepth: configuration.maxJSONDepth) {
        case .failure(let refusal): return refuse(refusal)
        case .success(let tree): request.json = tree
        }
        return await responder.respond(routed, request: request)
    }

    /// `a=1&b=%20&c` as libmicrohttpd reads a query: split on `&`, then on the first `=`, each
    /// part percent-decoded with `+` as a space; empty pieces dropped.
    static func queryArguments(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let name = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(name.count + 1)
            return (Request.percentDecoded(String(name), plusIsSpace: true), Request.percentDecoded(String(value), plusIsSpace: true))
        }
    }
}
