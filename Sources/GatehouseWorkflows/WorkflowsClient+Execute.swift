import Foundation
import GatehouseClientCore
import GatehouseWire
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WorkflowsClient {
    /// Runs a filled form: refused here, in the server's words, when it does not pass its
    /// inputs' rules; otherwise sent as JSON, or as the seed's multipart body when it has files.
    /// A lost answer is sent once more with the same `Idempotency-Key`, so the run is charged once.
    public func execute(_ form: WorkflowForm, idempotencyKey: String = UUID().uuidString) async throws -> DatacoveWire.ExecuteResponse {
        let problems = form.problems()
        if !problems.isEmpty { throw WorkflowsError.invalidForm(problems) }
        return try await execute(id: form.workflow.id, input: form.values, files: form.files, idempotencyKey: idempotencyKey)
    }

    /// Runs workflow `id` with `input` (non-file values) and `files` (by input key), unchecked.
    public func execute(
        id: String, input: [String: JSONValue], files: [String: [URL]] = [:], idempotencyKey: String = UUID().uuidString
    ) async throws -> DatacoveWire.ExecuteResponse {
        let url = http.url(WorkflowEndpoints.execute, below: DatacoveWire.Endpoints.mount)
        let body: Body
        if files.isEmpty {
            body = .json(try JSONEncoder().encode(DatacoveWire.ExecuteRequest(id: id, input: input)))
        } else {
            let parts = files.keys.sorted().flatMap { key in files[key]!.map { (key: key, url: $0) } }
            body = .multipart(try MultipartFile.write(id: id, input: input, files: parts))
        }
        defer { if case .multipart(let file) = body { file.remove() } }
        let answer: HTTPResponse
        do {
            answer = try await send(url, body: body, idempotencyKey: idempotencyKey)
        } catch let error where !(error is CancellationError) && !(error is WorkflowsError) {
            // The answer was lost on the way: the key makes the second try return the same run.
            answer = try await send(url, body: body, idempotencyKey: idempotencyKey)
        }
        guard (200..<300).contains(answer.status) else { throw WorkflowsError.from(answer) }
        return try http.decode(DatacoveWire.ExecuteResponse.self, from: answer.data)
    }

    enum Body {
        case json(Data)
        case multipart(MultipartFile)
    }

    /// One execute, with a fresh token once if the first is refused; a multipart body is
    /// streamed from its file on each try.
    private func send(_ url: URL, body: Body, idempotencyKey: String) async throws -> HTTPResponse {
        var rejected: String?
        var answer: HTTPResponse?
        for _ in 0..<2 {
            let token = try await accessToken(rejected)
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
            switch body {
            case .json(let data):
                request.httpBody = data
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            case .multipart(let file):
                guard let stream = InputStream(url: file.url) else { throw WorkflowsError.fileUnreadable(file.url.lastPathComponent) }
                request.httpBodyStream = stream
                request.setValue("multipart/form-data; boundary=\(file.boundary)", forHTTPHeaderField: "Content-Type")
                #if !canImport(FoundationNetworking)
                // Apple's URLSession frames a stream by this length; the Linux one sends every
                // stream chunked, and adding a length would frame the body two ways (RFC 9112
                // §6.1), which the server refuses.
                request.setValue(String(file.size), forHTTPHeaderField: "Content-Length")
                #endif
            }
            let response = try await http.response(request)
            answer = response
            guard response.status == 401 else { break }
            rejected = token
        }
        return answer!
    }
}
