import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Puts a credential (a bearer token, an account token pair) on a request and, when the server
/// answers 401, asks for a fresh one and sends once more, never more.
package struct CredentialInterceptor<Credential: Sendable>: Sendable {
    /// The credential to send: `rejected` is `nil` for the first try, or what the server just refused.
    package let credential: @Sendable (_ rejected: Credential?) async throws -> Credential
    /// Writes a credential into the request's headers.
    package let apply: @Sendable (Credential, inout URLRequest) -> Void

    package init(
        credential: @escaping @Sendable (_ rejected: Credential?) async throws -> Credential,
        apply: @escaping @Sendable (Credential, inout URLRequest) -> Void
    ) {
        self.credential = credential
        self.apply = apply
    }

    /// Sends through `client` and returns the last answer (of any status) with the credential it carried;
    /// a 401 here is the answer to the retry.
    package func send(_ request: URLRequest, through client: HTTPClient) async throws -> (answer: HTTPResponse, credential: Credential) {
        let first = try await credential(nil)
        let answer = try await client.response(authorized(request, first))
        guard answer.status == 401 else { return (answer, first) }
        let fresh = try await credential(first)
        return (try await client.response(authorized(request, fresh)), fresh)
    }

    private func authorized(_ request: URLRequest, _ credential: Credential) -> URLRequest {
        var request = request
        apply(credential, &request)
        return request
    }
}

extension CredentialInterceptor where Credential == String {
    /// `Authorization: Bearer <token>` from a token source that replaces a rejected token.
    package static func bearer(_ token: @escaping @Sendable (_ rejected: String?) async throws -> String) -> Self {
        Self(credential: token) { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    }
}
