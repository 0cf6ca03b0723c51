import GatehouseCore

/// Tries providers in order: when one fails (after its own retries), the next gets the
/// message, and the receipt is that of the provider that took it.
///
/// Every failure moves on, a refusal included: providers differ in coverage, sender IDs and
/// credentials, so "this provider will not take it" says little about the next. When all
/// fail, the error names each failure and is retryable if any of them was.
public struct FailoverDelivery: MessageDelivery {
    let providers: [any MessageDelivery]

    /// - Parameter providers: in order of preference; at least one.
    public init(_ providers: [any MessageDelivery]) {
        precondition(!providers.isEmpty, "FailoverDelivery needs at least one provider")
        self.providers = providers
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        var failures: [String] = []
        var retryable = false
        for provider in providers {
            do {
                return try await provider.send(message)
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as DeliveryError {
                failures.append(error.description)
                retryable = retryable || error.isRetryable
            } catch {
                // Not a provider's verdict (a transport a test left unset, say): assume it may pass later.
                failures.append("\(type(of: error))")
                retryable = true
            }
        }
        guard failures.count > 1 else { throw DeliveryError(failures[0], retryable: retryable) }
        let list = failures.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "; ")
        throw DeliveryError("all \(failures.count) providers failed: \(list)", retryable: retryable)
    }
}
