import Foundation
import GatehouseClientCore

/// Proves that the user holds the phone (seed 004, Prove's `ProveAuth`): a carrier check over the mobile
/// network first, then a one-time code if that fails, and AuthFinish with the flow's `authId` at the end.
///
/// Thread-safe and meant to be kept as a singleton; concurrent authentications are independent:
///
///     let auth = PossessionAuth.builder(authFinish: finishStep)
///         .withOtpFallback(otpStart: otpStartStep, otpFinish: otpFinishStep)
///         .build()
///     auth.authenticate(authToken) { error in print(error.localizedDescription) }
public final class PossessionAuth: Sendable {
    /// The SDK release whose surface this module implements (Prove iOS SDK 6.4), sent with `begin`.
    public static let sdkVersion = "6.4.0"

    let configuration: Configuration

    init(configuration: Configuration) { self.configuration = configuration }

    /// A builder for an authenticator whose flows end in `authFinish`.
    public static func builder(authFinish: any AuthFinishStep) -> Builder { Builder(authFinish: authFinish) }

    /// Whether this authenticator runs in test mode (`withMobileAuthTestMode()`).
    public var isTestMode: Bool { configuration.testMode }

    /// Starts an authentication with the `authToken` the app's backend got from Start and returns at once.
    /// `completion` is called only when the flow ends without AuthFinish; cancel the returned Task to stop it.
    @discardableResult
    public func authenticate(_ authToken: String, completion: @escaping @Sendable (PossessionAuthError) -> Void) -> Task<Void, Never> {
        let flow = PossessionFlow(configuration: configuration)
        // Detached: the steps must not run on the caller's actor (the main one, in an app).
        return Task.detached {
            do {
                _ = try await flow.run(authToken)
            } catch {
                completion(PossessionAuthError(error))
            }
        }
    }

    /// Runs an authentication to its end and returns the `authId` AuthFinish received; throws `PossessionAuthError`.
    /// Cancelling the calling Task cancels the flow.
    public func authenticate(_ authToken: String) async throws -> String {
        let flow = PossessionFlow(configuration: configuration)
        let task = Task.detached { try await flow.run(authToken) }
        return try await withTaskCancellationHandler {
            do {
                return try await task.value
            } catch {
                throw PossessionAuthError(error)
            }
        } onCancel: {
            task.cancel()
        }
    }
}
