import CMicroHTTPD

// The floor the real server is measured against: libmicrohttpd with the server's daemon
// flags and options, answering `ok` with no router and no Swift request objects.
// Everything here runs on MHD's threads, so it lives outside main.swift (which is
// MainActor-isolated) as plain nonisolated globals.

/// Marks a connection whose request head has been seen; MHD only needs a non-nil slot.
private let headSeen = UnsafeMutableRawPointer(bitPattern: 1)

private let body: StaticString = "ok"

private let respondOK: MHD_AccessHandlerCallback = { _, connection, _, _, _, _, uploadSize, slot in
    // First call: only the head. Queueing now would make MHD close keep-alive connections,
    // so answer on the next call, as the server does.
    if slot!.pointee == nil {
        slot!.pointee = headSeen
        return MHD_Result.YES
    }
    // Bodies are ignored, but must be consumed or MHD keeps calling back.
    if uploadSize!.pointee > 0 {
        uploadSize!.pointee = 0
        return MHD_Result.YES
    }
    guard let response = cmhd_response_copying(body.utf8CodeUnitCount, body.utf8Start) else { return MHD_Result.NO }
    let result = MHD_queue_response(connection, 200, response)
    MHD_destroy_response(response)
    return result
}

/// A running bare responder; `port` is the bound one (useful with port 0).
struct BaselineResponder {
    let daemon: OpaquePointer
    let port: UInt16

    /// Starts with the same options as `GatehouseHTTP.Server` under its default configuration.
    init?(port: UInt16, threads: Int) {
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: threads, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: 4096, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: 30, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: 32 * 1024, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.LISTEN_BACKLOG_SIZE, value: 1024, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil),
        ]
        guard let daemon = cmhd_start(cmhd_flags(0), port, respondOK, nil, &options) else { return nil }
        self.daemon = daemon
        self.port = cmhd_bound_port(daemon)
    }

    func stop() {
        MHD_stop_daemon(daemon)
    }
}
