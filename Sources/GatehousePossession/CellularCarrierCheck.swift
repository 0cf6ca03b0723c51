#if canImport(Network)
import Foundation
import Network

/// The carrier check on a phone and the default on Apple platforms: every hop an HTTP/1.1 GET over an
/// `NWConnection` that must use cellular (Wi-Fi and Ethernet prohibited), so the operator sees the SIM's own
/// data session; the redirects are walked by `RedirectWalk`. No cellular path is `.noCellular`, a VPN `vpn`.
public struct CellularCarrierCheck: CarrierCheck {
    private let headers: [String: String]
    private let maxRedirects: Int
    private let timeout: TimeInterval

    /// A check sending `headers` on every hop, each hop waiting at most `timeout` seconds.
    public init(headers: [String: String] = [:], maxRedirects: Int = 10, timeout: TimeInterval = 10) {
        self.headers = headers
        self.maxRedirects = maxRedirects
        self.timeout = timeout
    }

    /// Walks the challenge's redirects to `redirectUri` over cellular.
    public func run(_ challenge: CarrierCheckChallenge) async -> CarrierCheckOutcome {
        guard var walk = RedirectWalk(challenge, maxRedirects: maxRedirects) else { return .redirectError }
        var next = walk.start
        while case .fetch(let url) = next {
            switch await Self.get(url, headers: headers, timeout: timeout) {
            case .head(let head): next = walk.answered(url, status: head.status, location: head.location)
            case .unavailable(let outcome): return outcome
            }
        }
        guard case .done(let outcome) = next else { return .redirectError }
        return outcome
    }

    private enum Hop: Sendable {
        case head(HTTPHead)
        case unavailable(CarrierCheckOutcome)
    }

    // Safe: `data` is only touched in `receive`'s completion handlers, which NWConnection runs on the connection's serial
    // queue, one receive at a time (the next is issued from the last one's handler).
    /// Bytes read so far; touched only on the connection's queue.
    private final class Buffer: @unchecked Sendable {
        var data = Data()
    }

    /// One GET: connect over cellular, send the request, read until the head is complete.
    private static func get(_ url: URL, headers: [String: String], timeout: TimeInterval) async -> Hop {
        let https = url.scheme?.lowercased() == "https"
        guard let request = HTTPHead.request(for: url, headers: headers), let host = url.host,
            let number = UInt16(exactly: url.port ?? (https ? 443 : 80)), let port = NWEndpoint.Port(rawValue: number)
        else { return .head(HTTPHead(status: 0, location: nil)) }
        let parameters: NWParameters = https ? .tls : .tcp
        parameters.requiredInterfaceType = .cellular
        parameters.prohibitedInterfaceTypes = [.wifi, .wiredEthernet]
        let connection = NWConnection(host: NWEndpoint.Host(host), port: port, using: parameters)
        let hop = OneShot<Hop>()
        let queue = DispatchQueue(label: "gatehouse.possession.cellular")
        connection.stateUpdateHandler = { state in
            switch state {
            case .ready:
                // A tunnel carries the request out of the operator's sight: the check would prove nothing.
                if connection.currentPath?.usesInterfaceType(.other) == true {
                    hop.resolve(.unavailable(.unavailable(reason: "vpn")))
                    return
                }
                connection.send(content: request, completion: .contentProcessed { error in
                    if error != nil { hop.resolve(.unavailable(.noCellular)) }
                })
                Self.receive(on: connection, into: Buffer(), hop)
            case .waiting, .failed:
                // `waiting` is what a connection that requires cellular reports when there is none.
                hop.resolve(.unavailable(.noCellular))
            default:
                break
            }
        }
        connection.start(queue: queue)
        queue.asyncAfter(deadline: .now() + timeout) { hop.resolve(.unavailable(.timeout)) }
        let answer = await hop.wait(orIfCancelled: .unavailable(.timeout))
        connection.stateUpdateHandler = nil
        connection.cancel()
        return answer
    }

    private static func receive(on connection: NWConnection, into buffer: Buffer, _ hop: OneShot<Hop>) {
        connection.receive(minimumIncompleteLength: 1, maximumLength: 16 * 1024) { data, _, isComplete, error in
            if let data { buffer.data.append(data) }
            if let head = HTTPHead(parsing: buffer.data) {
                hop.resolve(.head(head))
            } else if error != nil {
                hop.resolve(.unavailable(.noCellular))
            } else if isComplete || buffer.data.count > HTTPHead.maxBytes {
                hop.resolve(.head(HTTPHead(status: 0, location: nil)))
            } else {
                Self.receive(on: connection, into: buffer, hop)
            }
        }
    }
}
#endif
