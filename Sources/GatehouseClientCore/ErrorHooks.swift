import Foundation
import GatehouseWire

/// How one dialect turns what went wrong into its module's errors; `HTTPClient` calls these so
/// every module keeps its own error type over the one client.
package struct ErrorHooks: Sendable {
    /// The statuses that count as success (most dialects: any 2xx).
    package var isSuccess: @Sendable (Int) -> Bool
    /// An answer whose status is not a success.
    package var status: @Sendable (HTTPResponse) -> any Error
    /// The transport threw (offline, cancelled, TLS).
    package var transport: @Sendable (any Error) -> any Error
    /// A successful answer that does not decode as the type asked for.
    package var decoding: @Sendable (_ type: Any.Type, _ error: any Error) -> any Error
    /// A request body that does not encode.
    package var encoding: @Sendable (_ type: Any.Type, _ error: any Error) -> any Error

    package init(
        isSuccess: @escaping @Sendable (Int) -> Bool = { (200..<300).contains($0) },
        status: @escaping @Sendable (HTTPResponse) -> any Error,
        transport: @escaping @Sendable (any Error) -> any Error = { $0 },
        decoding: @escaping @Sendable (_ type: Any.Type, _ error: any Error) -> any Error,
        encoding: @escaping @Sendable (_ type: Any.Type, _ error: any Error) -> any Error = { $1 }
    ) {
        self.isSuccess = isSuccess
        self.status = status
        self.transport = transport
        self.decoding = decoding
        self.encoding = encoding
    }

    /// Gatehouse's own envelope (`{"error": {"code", "message", "requestId"}}`) as `GatehouseClientError`.
    package static let plain = ErrorHooks(
        status: { answer in
            if let envelope = try? JSONDecoder().decode(AdminWire.ErrorEnvelope.self, from: answer.data) {
                return GatehouseClientError.api(
                    status: answer.status, code: ErrorCode(rawValue: envelope.error.code), message: envelope.error.message,
                    requestId: envelope.error.requestId)
            }
            return GatehouseClientError.unexpectedResponse("HTTP \(answer.status)")
        },
        decoding: { type, error in GatehouseClientError.unexpectedResponse("cannot decode \(type): \(error)") })
}
