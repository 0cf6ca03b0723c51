import Foundation
import GatehouseClientCore

extension PossessionAuth {
    /// Collects an authenticator's steps and options; every `with…` changes this builder and returns it.
    public final class Builder {
        private var configuration: Configuration

        init(authFinish: any AuthFinishStep) { configuration = Configuration(steps: AppSteps(authFinish: authFinish)) }

        /// Falls back to a one-time code when the carrier check fails: `otpStart` asks for the number
        /// (or consent), `otpFinish` for the code.
        @discardableResult
        public func withOtpFallback(otpStart: any OtpStartStep, otpFinish: any OtpFinishStep) -> Builder {
            configuration.steps.otpStart = otpStart
            configuration.steps.otpFinish = otpFinish
            return self
        }

        /// Sandbox test mode: Gatehouse simulates the carrier check (over Wi-Fi too) and takes the fixed code.
        /// Refused, before any request, with a token that is not a sandbox's.
        @discardableResult
        public func withMobileAuthTestMode() -> Builder {
            configuration.testMode = true
            return self
        }

        /// Calls the Gatehouse at `url` (its root) instead of the one the authToken names.
        @discardableResult
        public func withBaseURL(_ url: URL) -> Builder {
            configuration.gatehouse = url
            return self
        }

        /// Sends the device calls through `transport` (default: `URLSessionTransport(followsRedirects: false)`;
        /// a replacement must not follow redirects either, since each call carries a bearer).
        @discardableResult
        public func withTransport(_ transport: any Transport) -> Builder {
            configuration.transport = transport
            return self
        }

        /// Runs the operator's check with `check` (default: `CellularCarrierCheck` on Apple platforms,
        /// `RedirectFollowingCarrierCheck` in test mode and elsewhere).
        @discardableResult
        public func withCarrierCheck(_ check: any CarrierCheck) -> Builder {
            configuration.carrierCheck = check
            return self
        }

        /// Receives a line per request and step, redacted; tokens, codes and numbers are never logged.
        @discardableResult
        public func withLogger(_ logger: @escaping @Sendable (String) -> Void) -> Builder {
            configuration.logger = logger
            return self
        }

        /// The authenticator; its default transport is made here, once, and shared by its authentications.
        public func build() -> PossessionAuth {
            var configuration = configuration
            if configuration.transport == nil { configuration.transport = URLSessionTransport(followsRedirects: false) }
            return PossessionAuth(configuration: configuration)
        }
    }
}
