import Foundation
import GatehouseClientCore
import GatehouseWire

/// What a GatehouseWorkflows call can fail with (the session's own errors, such as a sign-out,
/// pass through as they are).
public enum WorkflowsError: Error, Equatable, Sendable {
    /// The server answered with its envelope: `message` is the server's text, to show as it is.
    case api(status: Int, code: WorkflowsErrorCode?, message: String, balance: Int?)
    /// The form did not pass its inputs' rules; messages by input key, the server's words.
    case invalidForm([String: String])
    /// No report came within the wait; the run may still finish, and `report(eventId:)` can ask again.
    case reportTimedOut(eventId: String)
    /// A file to send could not be read.
    case fileUnreadable(String)
    /// The server answered something that is not the expected shape.
    case unexpectedResponse(String)

    /// The server's error code of an `.api` error.
    public var code: WorkflowsErrorCode? {
        if case .api(_, let code, _, _) = self { return code }
        return nil
    }

    static func from(_ answer: HTTPResponse) -> WorkflowsError {
        guard let envelope = try? JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: answer.data) else {
            return .api(status: answer.status, code: nil, message: "HTTP \(answer.status)", balance: nil)
        }
        return .api(
            status: answer.status, code: envelope.error.code.map(WorkflowsErrorCode.init(rawValue:)),
            message: envelope.error.message ?? "HTTP \(answer.status)", balance: envelope.error.balance)
    }

    static let hooks = ErrorHooks(
        status: { WorkflowsError.from($0) },
        decoding: { type, error in WorkflowsError.unexpectedResponse("cannot decode \(type): \(error)") })
}
