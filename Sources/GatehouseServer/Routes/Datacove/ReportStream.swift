import Foundation
import GatehouseFormats
import GatehouseCore
import GatehouseHTTP
import GatehouseWorkflowsEngine

/// `GET workflows/reports/v1/stream`: the signed-in user's run changes as Server-Sent Events.
/// Each event is `event: report`, `id: <seq>` and the run's report as `data`; the ids count up
/// per account, so a client that reconnects with `Last-Event-ID` is sent what it missed. A new
/// stream starts with `event: ready` whose id is the account's latest, so that a client can
/// read a report once after it and miss nothing in between. Idle streams get `: ping`, and
/// end once the session that opened them has ended or its access token expired. An account
/// holds at most `StreamSlots.perAccount` streams on a node.
struct ReportStream {
    /// Held while the stream is open; gives the account's slot back when it ends.
    let slot: StreamSlots.Slot
    let engine: WorkflowsEngine
    let tenantID: String
    let accountID: String
    let heartbeat: TimeInterval
    /// Whether the stream's session still holds; checked at each heartbeat.
    let stillSignedIn: @Sendable () async -> Bool

    func response(resumingAfter resume: Int64?) -> Response {
        let headers: HTTPHeaders = ["Cache-Control": "no-store", "X-Accel-Buffering": "no"]
        return .eventStream(headers: headers) { [slot] writer in
            defer { slot.close() }
            try await writer.write(Data("retry: 2000\n\n".utf8))
            var last: Int64
            if let resume { last = resume } else { last = try await engine.lastEventSeq(tenantID: tenantID, accountID: accountID) }
            if resume == nil { try await writer.sendEvent("{}", event: "ready", id: String(last)) }
            while !writer.isCancelled {
                let seen = engine.events.version(tenantID: tenantID, accountID: accountID)
                let batch = try await engine.events(tenantID: tenantID, accountID: accountID, after: last)
                for (event, run) in batch {
                    let data = String(decoding: try SortedJSONEncoder.encode(WorkflowJSON.report(run)), as: UTF8.self)
                    try await writer.sendEvent(data, event: "report", id: String(event.seq))
                    last = event.seq
                }
                if batch.count == 100 { continue }
                // A heartbeat keeps a connection open: real time, whatever the engine's clock says.
                await engine.events.wait(tenantID: tenantID, accountID: accountID, after: seen, timeout: heartbeat, clock: SystemClock())
                if engine.events.version(tenantID: tenantID, accountID: accountID) == seen {
                    guard await stillSignedIn() else { return }
                    try await writer.sendComment("ping")
                }
            }
        }
    }
}
