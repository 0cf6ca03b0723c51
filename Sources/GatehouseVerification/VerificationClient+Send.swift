import Foundation
import GatehouseClientCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension VerificationClient {
    /// Sends one request through the SDK's HTTP client and returns the decoded reply or throws the mapped error.
    func send(_ request: URLRequest) async throws -> VerificationReply {
        try Task.checkCancellation()
        let http = factory.http
        let answer = try await http.response(request)
        // The caller has gone: do not hand it a result it no longer waits for.
        try Task.checkCancellation()
        guard http.hooks.isSuccess(answer.status) else { throw http.hooks.status(answer) }
        return try http.decode(VerificationReply.self, from: answer.data)
    }

    /// Maps a transport failure: cancellation to `CancellationError`, `URLError` to `.transport`.
    @Sendable static func translate(_ error: any Error) -> any Error {
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
}
