import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A change of one of the user's runs, from the report stream.
public struct ReportUpdate: Sendable, Equatable {
    /// The stream's event id: pass it as `resumingAfter` to miss nothing after it.
    public let eventID: String
    /// The run's report when the change happened.
    public let report: DatacoveWire.Report
}

extension WorkflowsClient {
    /// The user's run changes as they happen (`GET workflows/reports/v1/stream`). A dropped
    /// stream is opened again with `Last-Event-ID`, so no change is missed; the sequence ends
    /// only when the task is cancelled, or throws when the session is gone.
    public func reportUpdates(resumingAfter eventID: String? = nil) -> AsyncThrowingStream<ReportUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = eventID
                var delay: TimeInterval = 0.5
                var rejected: String?
                while !Task.isCancelled {
                    do {
                        let token = try await accessToken(rejected)
                        rejected = nil
                        var request = URLRequest(url: http.url(WorkflowEndpoints.stream, below: DatacoveWire.Endpoints.mount))
                        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                        request.setValue(appVersion, forHTTPHeaderField: "X-App-Version")
                        if let last { request.setValue(last, forHTTPHeaderField: "Last-Event-ID") }
                        let connection = EventStreamConnection(lastEventID: last)
                        do {
                            for try await event in connection.events(request) {
                                last = event.lastEventID.isEmpty ? last : event.lastEventID
                                delay = 0.5
                                if event.event == "ready" {
                                    continuation.yield(ReportUpdate(eventID: event.lastEventID, report: Self.readyMarker))
                                } else if event.event == "report", let report = try? http.decode(DatacoveWire.Report.self, from: Data(event.data.utf8)) {
                                    continuation.yield(ReportUpdate(eventID: event.lastEventID, report: report))
                                }
                            }
                        } catch EventStreamConnection.Failure.status(401) {
                            rejected = token
                            continue
                        }
                    } catch {
                        if Task.isCancelled { break }
                        if error is CancellationError { break }
                        if case WorkflowsError.api = error { continuation.finish(throwing: error); return }
                        // A session that cannot give a token ends the stream; network trouble does not.
                        if !(error is URLError), !(error is EventStreamConnection.Failure) { continuation.finish(throwing: error); return }
                    }
                    await foreground.sleep(delay)
                    delay = min(delay * 2, waiting.maxReconnectDelay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A stand-in report the stream yields for its `ready` event: from there on, nothing is missed.
    static let readyMarker = DatacoveWire.Report(
        eventId: "", workflowId: "", status: "ready", result: nil, error: nil, creditsCharged: 0, creditsRefunded: 0, createdAt: "",
        startedAt: nil, finishedAt: nil)

    /// Waits for a run to finish: told by the report stream, and polling as a fallback (at
    /// once when the app returns to the foreground), for `timeout` seconds (20 minutes unless
    /// told otherwise, seed 000 §09.5). Throws `reportTimedOut` when it has not finished by then.
    public func waitForReport(eventId: String, timeout: TimeInterval = 20 * 60) async throws -> DatacoveWire.Report {
        try await withThrowingTaskGroup(of: DatacoveWire.Report?.self) { group in
            group.addTask {
                for try await update in self.reportUpdates() {
                    if update.report == Self.readyMarker {
                        // From here the stream misses nothing: one read covers what came before.
                        let report = try await self.report(eventId: eventId)
                        if report.isFinished { return report }
                    } else if update.report.eventId == eventId, update.report.isFinished {
                        return update.report
                    }
                }
                return nil
            }
            group.addTask {
                var interval = self.waiting.pollInterval
                while !Task.isCancelled {
                    if let report = try? await self.report(eventId: eventId), report.isFinished { return report }
                    await self.foreground.sleep(interval)
                    interval = min(interval * 2, self.waiting.maxPollInterval)
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
                throw WorkflowsError.reportTimedOut(eventId: eventId)
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let report = next { return report }
            }
            throw WorkflowsError.reportTimedOut(eventId: eventId)
        }
    }
}
