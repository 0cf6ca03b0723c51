import CMicroHTTPD
import Foundation

extension Server {
    /// Hands a response to MHD, records it, and starts a stream's producer.
    func queue(_ response: Response, for exchange: Exchange) -> MHD_Result {
        exchange.state.responded()
        if let watched = exchange.watched { clientDeadlines.bodyComplete(watched) }
        var response = response
        if isStopping { response.headers.set("Connection", "close") }
        let handle: OpaquePointer?
        var producer: (@Sendable (BodyWriter) async throws -> Void)?
        switch response.body {
        case .bytes(let data):
            handle = data.withUnsafeBytes { raw in
                cmhd_response_copying(raw.count, raw.baseAddress)
            }
        case .stream(let produce):
            let channel = StreamChannel()
            let source = StreamSource(channel: channel, connection: exchange.connection)
            let connection = exchange.connection
            channel.onReadable = { MHD_resume_connection(connection) }
            track(exchange)
            attach(exchange, stream: channel)
            producer = produce
            handle = MHD_create_response_from_callback(
                cmhd_size_unknown(), 16 * 1024, readStream, Unmanaged.passRetained(source).toOpaque(), releaseStream)
        }
        guard let handle else {
            errorLog(TransportLogEntry("could not create a response", requestID: exchange.routed.context.requestID))
            return MHD_Result.NO
        }
        for (name, value) in response.headers {
            MHD_add_response_header(handle, name, value)
        }
        let result = MHD_queue_response(exchange.connection, UInt32(response.status), handle)
        MHD_destroy_response(handle)
        record(exchange, status: response.status)
        if let producer, let channel = exchange.stream {
            let writer = BodyWriter(channel: channel)
            Task {
                do {
                    try await producer(writer)
                    channel.finish()
                } catch {
                    channel.finish(error: error)
                }
            }
        }
        return result
    }

    func record(_ exchange: Exchange, status: Int) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - exchange.started) / 1e9
        let context = exchange.routed.context
        metrics.record(method: exchange.request.method, route: context.route, status: status, seconds: seconds)
        accessLog?.record(
            method: exchange.request.method, route: context.route, status: status, seconds: seconds,
            requestID: context.requestID, client: context.clientAddress)
    }
}
