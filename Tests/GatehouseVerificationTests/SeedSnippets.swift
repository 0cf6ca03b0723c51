// Every Swift snippet of the vendor's SDK 1.2 documentation (seed 001), compiled against this
// module with only the import changed. Free names the snippets assume (`client`, `verification`,
// `number`, `code`, `auth`, `show`, `print`, …) are members of `SeedSnippets`, so a test can run
// them over a mock client and read what they printed or showed.
import Foundation
import GatehouseVerification

/// The documentation's logger, verbatim.
struct ConsoleLogger: VerificationLogger {
    func log(_ message: String) { print(message) }
}

final class SeedSnippets: @unchecked Sendable {
    let client: VerificationClient
    let verification: Verification
    let number = "+4915112345678"
    let code = "123456"
    let auth: AuthorizationMethod = .public(appKey: "your-app-key")

    private let lock = NSLock()
    private var recorded: [String] = []

    init(client: VerificationClient, verification: Verification) {
        self.client = client
        self.verification = verification
    }

    /// What the snippets printed or showed, in order.
    var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func print(_ message: String) { record(message) }
    func show(_ message: String) { record("show: \(message)") }
    func presentCodeEntry(for verification: Verification) { record("present: \(verification.id)") }
    func stopPolling() { record("stopPolling") }
    func showLimitReached() { record("showLimitReached") }
    func scheduleRetry(after seconds: TimeInterval) { record("scheduleRetry: \(seconds)") }

    private func record(_ line: String) {
        lock.lock()
        recorded.append(line)
        lock.unlock()
    }

    // MARK: Quick start

    /// The quick start exactly as written; never run, because it builds a real network client.
    func quickStartAsWritten() async throws {
        let client = VerificationClient(
            environment: .sandbox,
            auth: .public(appKey: "your-app-key"),
            configuration: .init(timeout: 30)
        )

        let verification = try await client.start(
            destination: "+4915112345678",
            method: .sms,
            sms: .init(languages: ["en-US"])
        )

        if verification.status == .pending {
            let result = try await client.verify(verification, code: "123456")

            switch result.status {
            case .verified:
                print("verified")
            case .failed, .denied:
                print(result.errorDetail ?? "not verified")
            case .expired:
                print("expired")
            case .pending:
                print("still pending")
            case .other(let raw):
                print("unrecognised status: \(raw)")
            }
        } else {
            print(verification.errorDetail ?? "verification did not start")
        }
    }

    /// The quick start with the client line replaced by the mock client.
    func quickStart() async throws {
        let verification = try await client.start(
            destination: "+4915112345678",
            method: .sms,
            sms: .init(languages: ["en-US"])
        )

        if verification.status == .pending {
            let result = try await client.verify(verification, code: "123456")

            switch result.status {
            case .verified:
                print("verified")
            case .failed, .denied:
                print(result.errorDetail ?? "not verified")
            case .expired:
                print("expired")
            case .pending:
                print("still pending")
            case .other(let raw):
                print("unrecognised status: \(raw)")
            }
        } else {
            print(verification.errorDetail ?? "verification did not start")
        }
    }

    // MARK: Delivery-method options

    func germanSMS() async throws {
        try await client.start(
            destination: "+4915112345678",
            method: .sms,
            sms: .init(languages: ["de-DE"])
        )
    }

    func portugueseCallout() async throws {
        try await client.start(
            destination: "+5511987654321",
            method: .callout,
            callout: .init(languages: ["pt-BR", "pt-PT"])
        )
    }

    func smsAutofill() async throws {
        try await client.start(destination: number, method: .sms, sms: .init(autofill: .domain))
    }

    func templateGroups() async throws {
        try await client.start(destination: number, method: .sms, sms: .init(templateGroup: "checkout"))
        try await client.start(destination: number, method: .callout, callout: .init(templateGroup: "checkout"))
    }

    func customData() async throws {
        try await client.start(destination: number, method: .sms, custom: "signup-flow-b")
    }

    // MARK: A start can come back denied

    func deniedStart() async throws {
        let verification = try await client.start(destination: number, method: .sms)

        switch verification.status {
        case .pending:
            presentCodeEntry(for: verification)
        case .denied:
            show(verification.errorDetail ?? "verification denied")
        case .failed:
            show(verification.errorDetail ?? "verification failed")
        default:
            show("unexpected start status: \(verification.status)")
        }
    }

    // MARK: Returned values and by-number calls

    func currentStatus() async throws {
        let current = try await client.status(verification)

        if current.status.isTerminal {
            stopPolling()
        }
    }

    func statusByNumber() async throws -> VerificationResult {
        let current = try await client.status(number: "+4915112345678")
        return current
    }

    func verifyByNumber() async throws -> VerificationResult {
        let result = try await client.verify(
            number: "+4915112345678",
            code: "123456",
            method: .sms
        )
        return result
    }

    // MARK: Environments

    func sandboxClient() -> VerificationClient {
        let client = VerificationClient(
            environment: .sandbox,
            auth: .public(appKey: "your-sandbox-app-key")
        )
        return client
    }

    // MARK: Reading delivery-method details

    func readDetails(_ result: VerificationResult) {
        if case .sms(let sms) = result.details {
            print(sms.template ?? "no template")
            print(sms.language ?? "no language")
            print(sms.codeLength.map(String.init) ?? "no code length")
        }

        if case .callout(let callout) = result.details {
            print(callout.language ?? "no language")
            print(callout.codeLength.map(String.init) ?? "no code length")
        }
    }

    // MARK: Error handling

    func handleErrors() async throws {
        do {
            _ = try await client.verify(verification, code: code)
        } catch APIError.validationFailed(let items) {
            for item in items {
                switch item.known {
                case .codeInvalid:
                    print("wrong code")
                case .deliveryMethodInvalid:
                    print("wrong delivery method")
                case nil:
                    print("unmodelled code: \(item.code) - \(item.detail)")
                default:
                    print("\(item.code): \(item.detail)")
                }
            }
        } catch APIError.notFound {
            print("verification not found")
        } catch APIError.unauthorized {
            print("authentication failed")
        } catch APIError.insufficientBalance {
            print("insufficient balance")
        } catch APIError.unexpectedResponse(let message) {
            print("response could not be decoded: \(message)")
        } catch APIError.transport(let urlError) {
            print("network request failed: \(urlError)")
        } catch VerificationError.channelMismatch(let expected) {
            print("value does not match \(expected)")
        } catch VerificationError.invalidNumber {
            print("phone number contains no digits")
        } catch is CancellationError {
            print("request cancelled")
        }
    }

    // MARK: Limits (429)

    /// The documentation's catch clause, around a start.
    func handleLimits() async throws {
        do {
            try await client.start(destination: number, method: .sms)
        } catch APIError.unexpectedStatus(let code, let items) where code == 429 {
            if items.first?.known == .volumeLimitReached {
                showLimitReached()
            } else if let wait = items.first?.retryAfter {
                scheduleRetry(after: wait)
            }
        }
    }

    // MARK: Cancellation and timeout

    func cancellation() async throws -> Task<VerificationResult, any Error> {
        let task = Task {
            try await client.status(verification)
        }

        task.cancel()
        return task
    }

    // MARK: Debug logging

    func loggingClient() -> VerificationClient {
        let client = VerificationClient(
            environment: .sandbox,
            auth: auth,
            configuration: .init(logger: ConsoleLogger())
        )
        return client
    }
}
