import Foundation
import GatehouseAuth
import GatehouseClientCore
import GatehouseManagedAPI
import GatehousePossession
import GatehouseProveClient
import GatehousePurchases
import GatehouseVerification
import GatehouseWorkflows
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the CLI ends: one line on standard error and an exit code a script can test.
enum ExitCode: Int32 {
    case ok = 0
    /// The server refused (a 4xx, a wrong code, a flow that did not prove possession).
    case refused = 1
    /// The command line itself is wrong.
    case usage = 2
    /// No answer from the server (not running, wrong address, network).
    case unreachable = 3
    /// The server could not do it now (a 5xx, a store or provider unavailable): retry later.
    case unavailable = 4
    /// The session is over: sign in again.
    case signedOut = 5
}

/// A refusal as the CLI reports it.
struct CLIFailure: Error {
    let line: String
    let exit: ExitCode
}

extension CLI {
    /// The one line and exit code for `error`: the server's status, code and message, and what to do next.
    static func failure(for error: any Error) -> CLIFailure {
        switch error {
        case let failure as CLIFailure: return failure
        case let error as GatehouseClientError:
            switch error {
            case .api(let status, let code, let message, let requestId):
                return api(status, code.rawValue, message, retryAfter: nil, request: requestId)
            case .unexpectedResponse(let detail): return CLIFailure(line: "error: the server answered something unexpected: \(detail)", exit: .unavailable)
            case .invalidRequest(let detail): return CLIFailure(line: "error: cannot build the request: \(detail)", exit: .usage)
            }
        case let error as AuthError:
            switch error {
            case .api(let status, let code, let message, let retryAfter): return api(status, code?.rawValue, message, retryAfter: retryAfter)
            case .signedOut(let code): return signedOut(code?.rawValue)
            case .transport(let detail): return unreachable(detail)
            case .unexpectedResponse(let detail): return CLIFailure(line: "error: the server answered something unexpected: \(detail)", exit: .unavailable)
            case .invalidRequest(let detail): return CLIFailure(line: "error: cannot build the request: \(detail)", exit: .usage)
            }
        case let error as APIError: return verificationFailure(error)
        case let error as VerificationError: return CLIFailure(line: "error: \(error.localizedDescription)", exit: .refused)
        case let error as WorkflowsError:
            switch error {
            case .api(let status, let code, let message, let balance):
                guard status == 402 else { return api(status, code?.rawValue, message, retryAfter: nil) }
                // Workflow credits are the account's wallet, not the tenant's verification balance.
                return CLIFailure(
                    line: "error 402\(code.map { " \($0.rawValue)" } ?? ""): \(message)\(balance.map { " (balance: \($0) credits)" } ?? "")"
                        + " — add credits: buy a credit package, or an operator runs gatehouse-cli workflows grant ACCOUNT_ID N"
                        + " (gatehouse-cli auth profile shows the account id)",
                    exit: .refused)
            case .invalidForm(let fields):
                return CLIFailure(line: "error: " + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "), exit: .refused)
            case .reportTimedOut(let eventId):
                return CLIFailure(line: "error: no report for \(eventId) yet; see it later with gatehouse-cli workflows report \(eventId)", exit: .unavailable)
            case .fileUnreadable(let detail): return CLIFailure(line: "error: cannot read the file: \(detail)", exit: .usage)
            case .unexpectedResponse(let detail): return CLIFailure(line: "error: the server answered something unexpected: \(detail)", exit: .unavailable)
            }
        case let error as PurchasesError:
            switch error {
            case .api(let status, let code, let message, let retryAfter): return api(status, code?.rawValue, message, retryAfter: retryAfter)
            case .unexpectedResponse(let detail): return CLIFailure(line: "error: the server answered something unexpected: \(detail)", exit: .unavailable)
            }
        case let error as ManagedAPIException: return CLIFailure(line: "error \(error.errorCode): \(error.message)", exit: .refused)
        case let error as PossessionAuthError: return CLIFailure(line: "possession not proved: \(error.localizedDescription)", exit: .refused)
        case let error as ProveClient.Failure:
            return api(error.status, error.code.map(String.init), error.message, retryAfter: nil)
        case let error as URLError: return unreachable(error.localizedDescription)
        default:
            return CLIFailure(line: "error: \(error.localizedDescription)", exit: .refused)
        }
    }

    /// A server's refusal: `error 402 INSUFFICIENT_BALANCE: message — what to do`.
    static func api(_ status: Int, _ code: String?, _ message: String, retryAfter: TimeInterval?, request: String? = nil) -> CLIFailure {
        let head = "error \(status)\(code.map { " \($0)" } ?? ""): \(message)"
        let tail = request.map { " (request \($0))" } ?? ""
        switch status {
        case 401 where code == "SESSION_NOT_FOUND" || code == "SESSION_EXPIRED" || code == "TOKEN_EXPIRED": return signedOut(code)
        case 401: return CLIFailure(line: head + tail + " — check the credentials (admin token, API key or session)", exit: .refused)
        case 402: return CLIFailure(line: head + tail + " — add credit: gatehouse-cli balance TENANT AMOUNT", exit: .refused)
        case 429: return CLIFailure(line: head + tail + " — retry after \(retryAfter.map { "\(Int($0.rounded(.up))) s" } ?? "a while")", exit: .refused)
        case 500...: return CLIFailure(line: head + tail + " — the server could not do it now; retry later", exit: .unavailable)
        default: return CLIFailure(line: head + tail, exit: .refused)
        }
    }

    static func signedOut(_ code: String?) -> CLIFailure {
        CLIFailure(line: "signed out\(code.map { " (\($0))" } ?? ""): sign in again with gatehouse-cli auth request-otp and auth verify", exit: .signedOut)
    }

    static func unreachable(_ detail: String) -> CLIFailure {
        CLIFailure(line: "error: no answer from the server (\(plain(detail))); is it running? (make run), or set GATEHOUSE_URL", exit: .unreachable)
    }

    /// A transport failure in a few words: Foundation's `Error Domain=… UserInfo={…}` dumps
    /// carry their reason in `NSLocalizedDescription`; anything else keeps its first line.
    static func plain(_ detail: String) -> String {
        if let range = detail.range(of: "NSLocalizedDescription=") {
            let rest = detail[range.upperBound...]
            let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
            return String(rest[..<end]).trimmingCharacters(in: .whitespaces)
        }
        let line = detail.split(separator: "\n").first.map(String.init) ?? detail
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }

    /// `error 429 volume_limit_reached: … — what to do`, as sign-in's refusals read.
    static func verificationFailure(status: Int, _ items: [APIErrorItem]) -> CLIFailure {
        let head = "error \(status) " + items.map { "\($0.code): \($0.detail)" }.joined(separator: "; ")
        var next: [String] = []
        if let retry = items.compactMap(\.retryAfter).max() { next.append("retry after \(Int(retry.rounded(.up))) s") }
        if items.contains(where: { $0.code == "volume_limit_reached" }) {
            next.append("the SMS-pumping guard holds codes back for this number's prefix or country: gatehouse-cli prefix-blocks list TENANT shows the blocks,"
                + " and an operator lifts one with gatehouse-cli prefix-blocks lift TENANT PREFIX")
        }
        return CLIFailure(line: head + (next.isEmpty ? "" : " — " + next.joined(separator: "; ")), exit: status >= 500 ? .unavailable : .refused)
    }

    static func verificationFailure(_ error: APIError) -> CLIFailure {
        switch error {
        case .invalidParameters(let items): return verificationFailure(status: 400, items)
        case .validationFailed(let items): return verificationFailure(status: 422, items)
        case .unexpectedStatus(let status, let items): return verificationFailure(status: status, items)
        case .unauthorized: return CLIFailure(line: "error 401 unauthorized: check the OTP application's key and secret", exit: .refused)
        case .insufficientBalance:
            return CLIFailure(line: "error 402 balance_insufficient: the tenant's verification balance is too low — add credit: gatehouse-cli balance TENANT AMOUNT", exit: .refused)
        case .notFound: return CLIFailure(line: "error 404 not_found: no such verification", exit: .refused)
        case .unexpectedResponse(let detail): return CLIFailure(line: "error: the server answered something unexpected: \(detail)", exit: .unavailable)
        case .transport(let error): return unreachable(error.localizedDescription)
        }
    }
}
