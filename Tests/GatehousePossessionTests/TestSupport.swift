import Foundation
import GatehouseClientCore
import GatehousePossession
import GatehouseTestEvents
import GatehouseWire
import Testing
import GatehouseFormats
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let gatehouseRoot = "http://127.0.0.1:8080"
let redirectUri = "http://127.0.0.1:8080/api/possession/v1/camara/callback"

/// An authToken as Gatehouse signs it; the SDK reads its payload only, so the signature is a stand-in.
func authToken(env: String? = "sandbox", iss: String? = gatehouseRoot, sub: String = "flow-1") -> String {
    var claims = [#""aud":"gatehouse-possession""#, #""sub":"\#(sub)""#, #""jti":"j-\#(sub)""#, #""iat":1790000000"#, #""exp":1790000900"#]
    if let iss { claims.append(#""iss":"\#(iss)""#) }
    if let env { claims.append(#""env":"\#(env)""#) }
    return [#"{"alg":"HS256","typ":"JWT"}"#, "{" + claims.joined(separator: ",") + "}"].map(base64URL).joined(separator: ".") + ".c2ln"
}

func base64URL(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// Gatehouse's device API as a script: answers each operation (`begin`, `otp/start`, …) from its list in
/// order (the last one repeats), or from a handler, and records every call.
final class FakeGatehouse: Transport, @unchecked Sendable {
    enum Reply: Sendable {
        case answer(Int, String)
        case failure(URLError.Code)
    }

    struct Call: Sendable {
        var operation: String
        var bearer: String?
        var body: JSONValue?
        var request: URLRequest
    }

    private let lock = NSLock()
    private var script: [String: [Reply]]
    private var recorded: [Call] = []
    private let handler: (@Sendable (Call) async -> Reply)?

    init(_ script: [String: [Reply]]) {
        self.script = script
        handler = nil
    }

    init(handler: @escaping @Sendable (Call) async -> Reply) {
        script = [:]
        self.handler = handler
    }

    var calls: [Call] { lock.withLock { recorded } }
    var operations: [String] { calls.map(\.operation) }
    func calls(_ operation: String) -> [Call] { calls.filter { $0.operation == operation } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let prefix = PossessionWire.basePath + "/"
        let operation = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        let body = request.httpBody.flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
        let authorization = request.value(forHTTPHeaderField: "Authorization")
        let bearer = authorization.map { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : "not a bearer: \($0)" }
        let call = Call(operation: operation, bearer: bearer, body: body, request: request)
        let scripted = lock.withLock { () -> Reply? in
            recorded.append(call)
            guard let replies = script[operation], let first = replies.first else { return nil }
            if replies.count > 1 { script[operation] = Array(replies.dropFirst()) }
            return first
        }
        var reply = Wire.error(404, 1011, "no such operation")
        if let handler {
            reply = await handler(call)
        } else if let scripted {
            reply = scripted
        }
        switch reply {
        case .failure(let code): throw URLError(code)
        case .answer(let status, let text):
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            return (Data(text.utf8), response)
        }
    }
}

/// Gatehouse's answers as literal JSON.
enum Wire {
    static let camara = #"{"next":"carrier_check","carrierCheck":{"provider":"camara","url":"https://operator.test/authorize?state=s1","redirectUri":"\#(redirectUri)"}}"#
    static let sandboxCheck = #"{"next":"carrier_check","carrierCheck":{"provider":"test"}}"#
    static let otpFinish = #"{"next":"otp_finish","otpLength":4}"#
    static let done = #"{"next":"done","authId":"auth-1"}"#
    static let failed = #"{"next":"failed"}"#

    static func otpStart(phoneNumberNeeded: Bool) -> String { #"{"next":"otp_start","phoneNumberNeeded":\#(phoneNumberNeeded)}"# }

    static func session(_ step: String, deviceToken: String = "dev-1", authId: String = "auth-1", testMode: Bool = false) -> FakeGatehouse.Reply {
        .answer(200, #"{"deviceToken":"\#(deviceToken)","authId":"\#(authId)","testMode":\#(testMode),"step":\#(step)}"#)
    }

    static func step(_ json: String) -> FakeGatehouse.Reply { .answer(200, json) }

    static func error(_ status: Int, _ code: Int, _ message: String = "refused") -> FakeGatehouse.Reply {
        .answer(status, #"{"code":\#(code),"message":"\#(message)"}"#)
    }
}

/// `text` parsed, for comparing a request body with the literal JSON it must be.
func json(_ text: String) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

/// An OtpStart that answers from a script (by call, the last repeating) on another thread, as an app would.
final class ScriptedOtpStart: OtpStartStep, @unchecked Sendable {
    enum Answer: Sendable {
        case number(String)
        case consent
        case cancel
        /// Never answers (the app is showing its screen).
        case wait
    }

    private let lock = NSLock()
    private var answers: [Answer]
    private var seen: [(needed: Bool, error: PossessionAuthError?)] = []
    /// Signalled at each call.
    let called = Latch()

    init(_ answers: Answer...) { self.answers = answers }

    var calls: [(needed: Bool, error: PossessionAuthError?)] { lock.withLock { seen } }

    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        let answer = lock.withLock { () -> Answer in
            seen.append((phoneNumberNeeded, phoneValidationError))
            defer { if answers.count > 1 { answers.removeFirst() } }
            return answers.first ?? .wait
        }
        called.signal()
        DispatchQueue.global().async {
            switch answer {
            case .number(let number): callback.onSuccess(input: OtpStartInput(phoneNumber: number))
            case .consent: callback.onSuccess(input: nil)
            case .cancel: callback.onError()
            case .wait: break
            }
        }
    }
}

/// An OtpFinish that answers from a script (by call, the last repeating) on another thread.
final class ScriptedOtpFinish: OtpFinishStep, @unchecked Sendable {
    enum Answer: Sendable {
        case otp(String)
        case noInput
        case cancel
        case wait
    }

    private let lock = NSLock()
    private var answers: [Answer]
    private var seen: [PossessionAuthError?] = []
    let called = Latch()

    init(_ answers: Answer...) { self.answers = answers }

    var calls: [PossessionAuthError?] { lock.withLock { seen } }

    func execute(otpError: PossessionAuthError?, callback: OtpFinishStepCallback) {
        let answer = lock.withLock { () -> Answer in
            seen.append(otpError)
            defer { if answers.count > 1 { answers.removeFirst() } }
            return answers.first ?? .wait
        }
        called.signal()
        DispatchQueue.global().async {
            switch answer {
            case .otp(let otp): callback.onSuccess(input: OtpFinishInput(otp: otp))
            case .noInput: callback.onSuccess(input: nil)
            case .cancel: callback.onError()
            case .wait: break
            }
        }
    }
}

/// An AuthFinish that records the authIds it received, and how many of its calls ran at once
/// (a plain class of the app's, as the seed's are, is not safe to call from two flows at once).
final class RecordingFinish: AuthFinishStep, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [String] = []
    private var inside = 0
    private var mostAtOnce = 0
    let finished = Latch()
    /// How long each call takes, as an app's own work in the step would.
    var work: TimeInterval = 0

    var authIds: [String] { lock.withLock { received } }
    var callsAtOnce: Int { lock.withLock { mostAtOnce } }

    func execute(authId: String) {
        lock.withLock {
            inside += 1
            mostAtOnce = max(mostAtOnce, inside)
        }
        if work > 0 { Thread.sleep(forTimeInterval: work) }
        lock.withLock {
            inside -= 1
            received.append(authId)
        }
        finished.signal()
    }
}

/// A carrier check that records its challenges and answers `outcome`.
final class RecordingCarrierCheck: CarrierCheck, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [CarrierCheckChallenge] = []
    private let outcome: CarrierCheckOutcome

    init(_ outcome: CarrierCheckOutcome) { self.outcome = outcome }

    var challenges: [CarrierCheckChallenge] { lock.withLock { seen } }

    func run(_ challenge: CarrierCheckChallenge) async -> CarrierCheckOutcome {
        lock.withLock { seen.append(challenge) }
        return outcome
    }
}

/// An authenticator over `gatehouse`, with the OTP steps when given.
func makeAuth(
    _ gatehouse: FakeGatehouse, finish: RecordingFinish = RecordingFinish(), start: ScriptedOtpStart? = nil, otp: ScriptedOtpFinish? = nil,
    check: any CarrierCheck = ScriptedCarrierCheck(.noCellular), testMode: Bool = false
) -> PossessionAuth {
    let builder = PossessionAuth.builder(authFinish: finish).withTransport(gatehouse).withCarrierCheck(check)
    if let start, let otp { builder.withOtpFallback(otpStart: start, otpFinish: otp) }
    if testMode { builder.withMobileAuthTestMode() }
    return builder.build()
}

/// The `PossessionAuthError` the async twin throws, or `nil` (and a recorded issue) when it returns.
func failure(_ auth: PossessionAuth, _ token: String = authToken(), sourceLocation: SourceLocation = #_sourceLocation) async -> PossessionAuthError? {
    do {
        let authId = try await auth.authenticate(token)
        Issue.record("the authentication succeeded with \(authId)", sourceLocation: sourceLocation)
    } catch let error as PossessionAuthError {
        return error
    } catch {
        Issue.record("not a PossessionAuthError: \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Runs the callback form to its end: the errors its completion received (AuthFinish, when it runs, ends the flow silently).
func completions(_ auth: PossessionAuth, _ token: String = authToken()) async -> [PossessionAuthError] {
    let received = Received()
    await auth.authenticate(token) { error in received.append(error) }.value
    return received.all
}

final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [PossessionAuthError] = []
    func append(_ error: PossessionAuthError) { lock.withLock { errors.append(error) } }
    var all: [PossessionAuthError] { lock.withLock { errors } }
}

/// Named events a test awaits by count ("the second time OtpFinish showed"), recorded from any thread.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var latches: [String: Latch] = [:]

    func record(_ name: String) {
        let count = lock.withLock { () -> Int in
            counts[name, default: 0] += 1
            return counts[name]!
        }
        latch("\(name)#\(count)").signal()
    }

    /// Whether `name` happened `count` times within the latch's timeout.
    func wait(_ name: String, _ count: Int = 1) async -> Bool { await latch("\(name)#\(count)").wait(timeout: .seconds(60)) }

    func count(_ name: String) -> Int { lock.withLock { counts[name, default: 0] } }

    private func latch(_ key: String) -> Latch {
        lock.withLock {
            if let latch = latches[key] { return latch }
            let latch = Latch()
            latches[key] = latch
            return latch
        }
    }
}
