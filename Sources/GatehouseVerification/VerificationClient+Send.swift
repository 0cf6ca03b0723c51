import Foundation
import GatehouseClientCore
import GatehouseWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension VerificationClient {
    /// Sends one request, logs it, and returns the decoded verification or throws the mapped error.
    func send(_ request: URLRequest) async throws -> VerificationWire.VerificationDTO {
        try Task.checkCancellation()
        log("→ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")")
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw Self.translate(error)
        }
        log("← \(response.statusCode)")
        // The caller has gone: do not hand it a result it no longer waits for.
        try Task.checkCancellation()
        guard ResponseDecoder.successStatuses.contains(response.statusCode) else {
            throw ResponseDecoder.error(
                status: response.statusCode, body: data,
                retryAfterHeader: response.value(forHTTPHeaderField: "Retry-After"))
        }
        return try ResponseDecoder.verification(from: data)
    }

    /// Maps a transport failure: cancellation to `CancellationError`, `URLError` to `.transport`.
    static func translate(_ error: any Error) -> any Error {
        switch error {
        case is CancellationError, is APIError, is VerificationError:
            return error
        case let urlError as URLError:
            return urlError.code == .cancelled ? CancellationError() : APIError.transport(urlError)
        case GatehouseClientError.unexpectedResponse(let message):
            return APIError.unexpectedResponse(message)
        default:
            return Task.isCancelled ? CancellationError() : APIError.transport(URLError(.unknown))
        }
    }

    private func log(_ line: String) {
        logger?.log(Redactor.redact(line))
    }
}
