import Foundation

extension ProveWire {
    /// Prove's v3 server API as an app's backend calls it: the client credentials grant, then
    /// the four steps of a flow with the access token.
    public enum Endpoints {
        static func step<Body, Reply>(_ name: String, _ summary: String) -> Endpoint<Body, Reply> {
            Endpoint(.POST, "/v3/" + name, credential: .proveClient, envelope: .prove, id: name, summary: summary)
        }

        public static let token = Endpoint<RawBytes, TokenResponse>(
            .POST, "/token", credential: .clientCredentials, envelope: .prove, id: "getAccessToken",
            summary: "An access token for the client's credentials (form or HTTP Basic)")
        public static let start: Endpoint<StartRequest, StartResponse> = step("start", "Start a possession flow for a phone number")
        public static let validate: Endpoint<ValidateRequest, ValidateResponse> = step("validate", "Whether the device proved possession")
        public static let challenge: Endpoint<ChallengeRequest, ChallengeResponse> =
            step("challenge", "Pre-fill: the identity behind the number, asked with a date of birth or SSN")
        public static let complete: Endpoint<CompleteRequest, CompleteResponse> =
            step("complete", "Compare the identity the user confirmed, field by field")

        public static var all: [EndpointDescription] {
            [token.described, start.described, validate.described, challenge.described, complete.described]
        }
    }
}

extension PossessionWire {
    /// What the `GatehousePossession` SDK calls on the device, under ``PossessionWire/basePath``.
    public enum Endpoints {
        static func step<Body>(_ path: String, id: String, _ summary: String) -> Endpoint<Body, Step> {
            Endpoint(.POST, basePath + path, credential: .possessionToken, envelope: .prove, id: id, summary: summary)
        }

        public static let begin = Endpoint<BeginRequest, Session>(
            .POST, basePath + "/begin", credential: .possessionToken, envelope: .prove, id: "begin",
            summary: "The device begins the flow with its authToken (once)")
        public static let carrierCheck: Endpoint<CarrierEvidence, Step> = step("/carrier-check", id: "carrierCheck", "What the carrier's check answered")
        public static let otpStart: Endpoint<OTPStartRequest, Step> = step("/otp/start", id: "otpStart", "Send a code instead (OTP fallback)")
        public static let otpFinish: Endpoint<OTPFinishRequest, Step> = step("/otp/finish", id: "otpFinish", "The code the user typed")
        public static let cancel: Endpoint<NoBody, Step> = step("/cancel", id: "cancel", "The user gave up")

        public static var all: [EndpointDescription] {
            [begin.described, carrierCheck.described, otpStart.described, otpFinish.described, cancel.described]
        }
    }
}
