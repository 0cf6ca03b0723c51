import Foundation
import GatehouseCore
import GatehouseOutbound
import Testing
@testable import GatehouseManagedAPI

/// The loopback redirect over a real socket, with libcurl standing in for the browser
/// (URLSession on Linux once left a request to the loopback unanswered for its whole 60 s
/// under the full suite, a defect of its own, not of the presenter).
@Suite struct LoopbackConsentPresenterTests {
    static let browser = CurlHTTPClient()

    static func get(_ url: URL) async throws -> (status: Int, body: String) {
        let (data, response) = try await browser.send(OutboundRequest(url: url, timeoutInterval: 120))
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func theRedirectURIIsTheLoopbackAddressWithTheBoundPort() throws {
        let presenter = try LoopbackConsentPresenter { _ in }
        #expect(presenter.redirectURI.scheme == "http" && presenter.redirectURI.host == "127.0.0.1")
        #expect(presenter.redirectURI.path == "/callback" && (presenter.redirectURI.port ?? 0) > 0)
        #expect(try LoopbackConsentPresenter { _ in }.redirectURI.port != presenter.redirectURI.port)
    }

    @Test func aBrowserStandInCompletesTheCallback() async throws {
        let pages = Log()
        let box = PresenterBox()
        // A generous wait: under the whole suite on two cores, the browser's task may start late
        // (this test has taken 64 s there, against 0.6 s alone, and twice ran out of a 60 s wait
        // and a 30 s request; why it is that slow there is not found yet).
        let presenter = try LoopbackConsentPresenter(timeout: 180) { _ in
            let redirect = box.presenter!.redirectURI
            let stray = try await Self.get(redirect.deletingLastPathComponent().appendingPathComponent("favicon.ico"))
            pages.append("\(stray.status)")
            let callback = try await Self.get(URL(string: "\(redirect.absoluteString)?code=c1&state=s1")!)
            pages.append("\(callback.status) \(callback.body)")
        }
        box.presenter = presenter
        let url = try await presenter.present(authorizationURL: URL(string: "https://idp.test/authorize")!, redirectURI: presenter.redirectURI)
        #expect(url.absoluteString == "\(presenter.redirectURI.absoluteString)?code=c1&state=s1")
        #expect(pages.all.first == "404")
        #expect(pages.all.last?.hasPrefix("200 ") == true && pages.all.last?.contains("You can close this window") == true)
    }

    @Test func noCallbackWithinTheTimeoutIsCancelled() async throws {
        let presenter = try LoopbackConsentPresenter(timeout: 0.5) { _ in }
        let error = await exception {
            try await presenter.present(authorizationURL: URL(string: "https://idp.test/a")!, redirectURI: presenter.redirectURI)
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_CANCELLED)
    }

    @Test func anotherRedirectURIIsRefusedBeforeTheBrowserOpens() async throws {
        let opened = Log()
        let presenter = try LoopbackConsentPresenter(timeout: 10) { url in opened.append(url.absoluteString) }
        let error = await exception {
            try await presenter.present(authorizationURL: URL(string: "https://idp.test/a")!, redirectURI: redirect)
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED && opened.all.isEmpty)
    }

    @Test func aBrowserThatCannotOpenFailsTheConsent() async throws {
        struct NoBrowser: Error {}
        let presenter = try LoopbackConsentPresenter(timeout: 10) { _ in throw NoBrowser() }
        let error = await exception {
            try await presenter.present(authorizationURL: URL(string: "https://idp.test/a")!, redirectURI: presenter.redirectURI)
        }
        #expect(error?.errorCode == ManagedAPIErrorCodes.OAUTH_FAILED)
    }

    @Test func theServiceRunsAFullConsentThroughTheLoopback() async throws {
        let box = PresenterBox()
        let presenter = try LoopbackConsentPresenter(timeout: 10) { authorizationURL in
            // The user approves: the provider redirects the browser to the loopback with the same state.
            let fields = query(authorizationURL)
            #expect(fields["redirect_uri"] == box.presenter?.redirectURI.absoluteString)
            _ = try await Self.get(URL(string: "\(fields["redirect_uri"]!)?code=lc1&state=\(fields["state"]!)")!)
        }
        box.presenter = presenter
        let transport = provider { fields in
            fields["code"] == "lc1" && fields["redirect_uri"] == presenter.redirectURI.absoluteString
                ? .init(status: 200, body: tokenJSON("a1", refresh: "r1")) : .init(status: 400, body: #"{"error":"invalid_request"}"#)
        }
        let service = ManagedAPIService(
            baseURL: gatehouse, transport: transport, tokenStore: MemoryManagedAPITokenStore(),
            definitionCache: MemoryDefinitionCache(Fixture.cached), consent: presenter, redirectURI: presenter.redirectURI) { _ in "s1" }
        let answer = try await service.fetch(name: "spotify", relativeUrl: "/me")
        #expect(answer.ok && transport.apiRequests.map(bearer) == ["a1"])
    }
}

/// Lets a presenter's `open` closure read the presenter's own redirect URI.
final class PresenterBox: @unchecked Sendable {
    var presenter: LoopbackConsentPresenter?
}
