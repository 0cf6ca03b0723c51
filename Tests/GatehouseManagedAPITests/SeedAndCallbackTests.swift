import Foundation
import GatehouseTestEvents
import Testing
@testable import GatehouseManagedAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seed's public surface and its callback-style functions.
@Suite(.serialized) struct SeedAndCallbackTests {
    static let key = DispatchSpecificKey<String>()

    static func queue() -> DispatchQueue {
        let queue = DispatchQueue(label: "test.callbacks")
        queue.setSpecific(key: key, value: "callbacks")
        return queue
    }

    /// The seed's example, verbatim but for the entry point; its `print` is caught by the local one.
    @Test func theSeedSnippetRuns() async throws {
        let printed = Log()
        let done = Latch()
        func print(_ items: Any...) {
            printed.append(items.map { "\($0)" }.joined(separator: " "))
            done.signal()
        }
        let transport = provider(api: { request in
            request.url?.absoluteString == "https://api.spotify.test/v1/me/top/tracks?limit=5"
                ? .init(status: 200, body: #"{"items":["t1"]}"#, headers: ["Content-Type": "application/json"]) : .init(status: 404)
        }) { _ in .init(status: 500) }
        let store = MemoryManagedAPITokenStore([Fixture.spotifyKey: StoredTokens(accessToken: "a1")])
        ManagedAPIs.configure(makeService(transport, store: store, queue: Self.queue()))
        #expect(ManagedAPIs.isConfigured)

        ManagedAPIs.getManagedApiService().fetch(
            name: "spotify",
            relativeUrl: "/me/top/tracks?limit=5",
            onSuccess: { response in
                guard response.ok, let json = response.body as? [String: Any] else { return }
                print(json["items"] ?? [])
            },
            onError: { error in
                print("fetch failed: \(error)")
            }
        )

        #expect(await done.wait())
        #expect(printed.all.count == 1 && printed.all[0].contains("t1"))
    }

    @Test func theSeedsTypesAndDefaults() {
        let options = ManagedApiFetchOptions()
        #expect(options.method == "GET" && options.headers.isEmpty && options.body == nil && options.prompt == .ifRequired)
        #expect(AuthPrompt.allCases.map(\.rawValue) == ["ALWAYS", "IF_REQUIRED", "NEVER"])
        #expect(ManagedApiAuthType.allCases.map(\.rawValue) == ["NONE", "BASIC", "BEARER_TOKEN", "API_KEY", "OAUTH2"])
        let map: DataMap = ["name": "spotify"]
        #expect(map["name"] == "spotify")
        #expect(ManagedAPIErrorCodes.INTERACTION_REQUIRED_ERROR_CODE == "INTERACTION_REQUIRED")
    }

    /// The seed's declarations, as types: each line fails to compile if ours differs.
    @Test func theSeedsSignaturesCompileAsDeclared() {
        let service = makeService(ScriptedTransport { _ in .init(status: 200) })
        let fetch: (String, String, ManagedApiFetchOptions, @escaping (ManagedApiFetchResponse) -> Void, ((any Error) -> Void)?) -> Void = service.fetch
        let fetchAsync: (String, String, ManagedApiFetchOptions) async throws -> ManagedApiFetchResponse = service.fetch
        let list: (@escaping ([DataMap]) -> Void, ((any Error) -> Void)?) -> Void = service.getManagedAPIs
        let one: (String, @escaping (DataMap?) -> Void, ((any Error) -> Void)?) -> Void = service.getManagedAPI
        _ = (fetch, fetchAsync, list, one)
        var options = ManagedApiFetchOptions()
        options.method = "PUT"
        options.headers = ["X-A": "1"]
        options.body = "b"
        options.prompt = .never
        let response = ManagedApiFetchResponse(status: 204, headers: ["A": "1"], data: Data())
        let status: Int = response.status
        let headers: [String: String] = response.headers
        let body: Any? = response.body
        let raw: String? = response.rawBody
        let ok: Bool = response.ok
        #expect(status == 204 && headers == ["A": "1"] && body == nil && raw == nil && ok)
        let prompt: AuthPrompt? = AuthPrompt(rawValue: "IF_REQUIRED")
        let type: ManagedApiAuthType? = ManagedApiAuthType(rawValue: "BEARER_TOKEN")
        #expect(prompt == .ifRequired && type == .bearerToken)
        let map: [String: String] = DataMap()
        #expect(map.isEmpty)
    }

    @Test func successArrivesOnTheCallbackQueue() async {
        let onQueue = Latch()
        let transport = ScriptedTransport { _ in .init(status: 500, body: "boom") }
        let service = makeService(transport, queue: Self.queue())
        service.fetch(name: "open", relativeUrl: "/x", onSuccess: { response in
            if response.status == 500, DispatchQueue.getSpecific(key: Self.key) == "callbacks" { onQueue.signal() }
        }, onError: { _ in })
        #expect(await onQueue.wait())
    }

    @Test func errorsArriveOnTheCallbackQueue() async {
        let onQueue = Latch()
        let service = makeService(ScriptedTransport { _ in .init(status: 200) }, queue: Self.queue())
        service.fetch(name: "nope", relativeUrl: "/x", onSuccess: { _ in }, onError: { error in
            let code = (error as? ManagedAPIException)?.errorCode
            if code == ManagedAPIErrorCodes.UNKNOWN_API, DispatchQueue.getSpecific(key: Self.key) == "callbacks" { onQueue.signal() }
        })
        #expect(await onQueue.wait())
    }

    @Test func definitionsArriveOnTheCallbackQueue() async {
        let all = Latch()
        let one = Latch()
        let service = makeService(ScriptedTransport { _ in .init(status: 500) }, queue: Self.queue())
        service.getManagedAPIs(onSuccess: { apis in
            if apis.count == Fixture.all.count, DispatchQueue.getSpecific(key: Self.key) == "callbacks" { all.signal() }
        })
        service.getManagedAPI(name: "crm", onSuccess: { api in
            if api?["mode"] == "proxied", api?["oauth2"] == nil, DispatchQueue.getSpecific(key: Self.key) == "callbacks" { one.signal() }
        })
        #expect(await all.wait())
        #expect(await one.wait())
    }
}
