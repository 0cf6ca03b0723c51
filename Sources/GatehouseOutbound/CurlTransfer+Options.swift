import CCurl
import Foundation
import GatehouseCore

extension CurlTransfer {
    /// Sets every option the request implies. Nothing is left to curl's defaults that could
    /// differ from what a caller expects: no proxy from the environment, no redirects unless
    /// asked, no protocol but HTTP(S), no signals, deadlines always.
    func configure() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_set_pointer(easy, CURLOPT_PRIVATE, context))
        try check(withCString(request.url.absoluteString) { ccurl_set_pointer(easy, CURLOPT_URL, $0) })
        try check(withCString("http,https") { ccurl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, $0) })
        try check(withCString("http,https") { ccurl_set_pointer(easy, CURLOPT_REDIR_PROTOCOLS_STR, $0) })
        try check(withCString("") { ccurl_set_pointer(easy, CURLOPT_PROXY, $0) })
        try check(ccurl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        try check(ccurl_set_long(easy, CURLOPT_FOLLOWLOCATION, request.followsRedirects ? 1 : 0))
        try check(ccurl_set_long(easy, CURLOPT_MAXREDIRS, 5))
        try check(ccurl_set_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        let total = Self.milliseconds(request.timeoutInterval)
        try check(ccurl_set_long(easy, CURLOPT_TIMEOUT_MS, total))
        try check(ccurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, min(total, Self.milliseconds(request.connectTimeout))))
        if request.lowSpeedBytesPerSecond > 0 {
            try check(ccurl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, request.lowSpeedBytesPerSecond))
            try check(ccurl_set_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.lowSpeedSeconds.rounded(.up)))))
        }
        let method = (request.httpMethod ?? "GET").uppercased()
        // A HEAD answer announces the length of a body it does not send: only bytes count then.
        if method != "HEAD" { try check(ccurl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes))) }
        try setMethod(method)
        try setHeaders(hasBody: !(request.httpBody ?? Data()).isEmpty)
        try check(ccurl_set_write(easy, CURLOPT_HEADERFUNCTION, curlHeaderLine))
        try check(ccurl_set_pointer(easy, CURLOPT_HEADERDATA, context))
        try check(ccurl_set_write(easy, CURLOPT_WRITEFUNCTION, curlBodyBytes))
        try check(ccurl_set_pointer(easy, CURLOPT_WRITEDATA, context))
        try check(ccurl_set_opensocket(easy, curlOpenSocket))
        try check(ccurl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, context))
    }

    private func setMethod(_ method: String) throws {
        let body = request.httpBody ?? Data()
        switch method {
        case "GET" where body.isEmpty:
            try check(ccurl_set_long(easy, CURLOPT_HTTPGET, 1))
        case "HEAD" where body.isEmpty:
            try check(ccurl_set_long(easy, CURLOPT_NOBODY, 1))
        default:
            if !body.isEmpty || method == "POST" {
                // curl copies the body: it outlives this call, the request's Data need not.
                try check(ccurl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                try check(body.withUnsafeBytes { ccurl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) })
            }
            if method != "POST" { try check(withCString(method) { ccurl_set_pointer(easy, CURLOPT_CUSTOMREQUEST, $0) }) }
        }
    }

    /// The caller's fields as they are; curl adds no `Expect: 100-continue` (a round trip an
    /// upstream may never answer) and, for a body, no form content type the caller did not set.
    private func setHeaders(hasBody: Bool) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            list = line.withCString { curl_slist_append(list, $0) }
        }
        for (name, value) in request.headerFields {
            // `Name;` sends an empty field; `Name:` would remove curl's own.
            append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        append("Expect:")
        if hasBody, request.value(forHTTPHeaderField: "Content-Type") == nil { append("Content-Type:") }
        headerList = list
        try check(ccurl_set_pointer(easy, CURLOPT_HTTPHEADER, list))
    }

    private func withCString<T>(_ text: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
        text.withCString(body)
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw OutboundError(code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL ? .badURL : .unknown) }
    }

    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds, 86_400) * 1000)
    }
}

// The C callbacks. Each gets the transfer as its context pointer; the loop holds the
// transfer for as long as curl may call them.

let curlHeaderLine: curl_write_callback = { bytes, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return transfer.headerLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
}

let curlBodyBytes: curl_write_callback = { bytes, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.bodyBytes(UnsafeRawBufferPointer(start: bytes, count: size * count))
}

/// Vets the address curl is about to connect to, after every resolution and redirect: the
/// address checked is the address connected to, so DNS rebinding gains nothing.
let curlOpenSocket: curl_opensocket_callback = { context, purpose, address in
    guard let context, let address else { return ccurl_socket_bad() }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    guard let socketAddress = ccurl_sockaddr(address), transfer.mayConnect(to: socketAddress) else { return ccurl_socket_bad() }
    return ccurl_open_socket(address)
}
