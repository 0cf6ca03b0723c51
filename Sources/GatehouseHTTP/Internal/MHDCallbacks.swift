import CMicroHTTPD
import Foundation

// C callbacks for libmicrohttpd. They run on MHD's threads, so they are plain
// nonisolated functions that only hop into the owning Server.
//
// They borrow the server (`_withUnsafeGuaranteedRef`) instead of holding a reference of their
// own: a server whose last owner let go mid-request is released off MHD's threads once the
// request ends (`Server.end`), and a callback's own reference, dropped after that release,
// would be the last one, on MHD's thread, whose `MHD_stop_daemon` then waits for itself and
// aborts the process ("Failed to join a thread").

let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadSize, slot in
    return Unmanaged<Server>.fromOpaque(cls!)._withUnsafeGuaranteedRef { server in
        server.handle(
            connection: connection!, url: url, method: method, version: version, uploadData: uploadData, uploadSize: uploadSize!, slot: slot!)
    }
}

let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
    guard let cls else { return }
    Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
        if let connection, let watched = cmhd_socket_context(connection) {
            server.clientDeadlines.requestFinished(Unmanaged<WatchedConnection>.fromOpaque(watched).takeUnretainedValue())
        }
        // Ended before the first call (MHD refused the head itself): only the target's length was there.
        guard let slot, let raw = slot.pointee, cmhd_is_uri_length(raw) == 0 else {
            slot?.pointee = nil
            return
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
        slot.pointee = nil
        server.completed(exchange)
    }
}

/// Opens and closes a connection's head-deadline watch.
let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let socketContext else { return }
    let deadlines = Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.clientDeadlines }
    switch code.rawValue {
    case 0: // MHD_CONNECTION_NOTIFY_STARTED
        guard let connection else { return }
        socketContext.pointee = Unmanaged.passUnretained(deadlines.opened(fd: cmhd_connection_fd(connection))).toOpaque()
    case 1: // MHD_CONNECTION_NOTIFY_CLOSED
        guard let raw = socketContext.pointee else { return }
        deadlines.closed(Unmanaged<WatchedConnection>.fromOpaque(raw).takeUnretainedValue())
        socketContext.pointee = nil
    default:
        return
    }
}

let collectPair: MHD_KeyValueIterator = { cls, _, key, value in
    let pairs = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
    if let key {
        pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    }
    return MHD_Result.YES
}

let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
    let source = Unmanaged<StreamSource>.fromOpaque(cls!).takeUnretainedValue()
    switch source.channel.pull(into: buffer!, max: max, suspend: { MHD_suspend_connection(source.connection) }) {
    case .bytes(let count): return count
    case .wait: return 0
    case .end: return cmhd_end_of_stream()
    case .failed: return cmhd_end_with_error()
    }
}

let releaseStream: MHD_ContentReaderFreeCallback = { cls in
    let source = Unmanaged<StreamSource>.fromOpaque(cls!).takeRetainedValue()
    source.channel.cancel()
}

let collectPart: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, offset, size in
    let exchange = Unmanaged<Exchange>.fromOpaque(cls!).takeUnretainedValue()
    return exchange.appendPart(
        name: key.map { String(cString: $0) } ?? "",
        filename: filename.map { String(cString: $0) },
        contentType: contentType.map { String(cString: $0) },
        bytes: data.map { UnsafeRawBufferPointer(start: $0, count: size) } ?? UnsafeRawBufferPointer(start: nil, count: 0),
        isStart: offset == 0
    ) ? MHD_Result.YES : MHD_Result.NO
}
