import Foundation

/// Canned response bodies.
enum Fixtures {
    static let id = "01a0435e-2b71-7762-b0c2-22fabc5ed19c"
    static let farFuture = "2999-01-01T00:00:00Z"
    static let farPast = "2000-01-01T00:00:00Z"
    static let fractional = "2026-07-13T12:00:00.123Z"

    /// A verification object with the given fields; `extra` is spliced in raw.
    static func verification(
        id: String = id, destination: String = "15551234567", method: String = "sms", status: String = "pending",
        fee: String? = "\"0.05\"", errorCode: String? = nil, errorDetail: String? = nil,
        expiresAt: String? = farFuture, block: String? = #"{"template":"default_otp","language":"en-US","interception_timeout":300,"code_length":6}"#,
        extra: String = ""
    ) -> String {
        var fields = [
            #""id":"\#(id)""#, #""destination":"\#(destination)""#, #""delivery_method":"\#(method)""#,
            #""status":"\#(status)""#,
            #""error_code":\#(errorCode.map { "\"\($0)\"" } ?? "null")"#,
            #""error_detail":\#(errorDetail.map { "\"\($0)\"" } ?? "null")"#,
        ]
        if let fee { fields.append(#""fee":\#(fee)"#) }
        if let expiresAt { fields.append(#""expires_at":"\#(expiresAt)""#) }
        if let block { fields.append(#""\#(method)":\#(block)"#) }
        if !extra.isEmpty { fields.append(extra) }
        return #"{"data":{\#(fields.joined(separator: ","))}}"#
    }

    static let startSMS = verification()

    static func startCallout(language: String = "en-US") -> String {
        verification(method: "callout", block: #"{"language":"\#(language)","code_length":6}"#)
    }

    static func verifiedSMS(fee: String = "\"0.05\"") -> String { verification(status: "verified", fee: fee) }

    static let verifiedCallout = verification(method: "callout", status: "verified", block: #"{"language":"en-US","code_length":6}"#)

    static let verifiedSMSNumberFee = verification(status: "verified", fee: "0.06")

    static let failedTooManyAttempts = verification(
        status: "failed", errorCode: "too_many_attempts", errorDetail: "too many attempts")

    static let failedSuperseded = verification(status: "failed", errorCode: "superseded", errorDetail: "superseded")

    static func denied(errorCode: String, errorDetail: String) -> String {
        verification(status: "denied", fee: "\"0.05\"", errorCode: errorCode, errorDetail: errorDetail)
    }

    static func withStatus(_ status: String) -> String { verification(status: status) }

    /// `{"errors":[...]}` from `(code, detail)` pairs.
    static func errorBody(_ items: [(String, String)]) -> String {
        let elements = items.map { #"{"code":"\#($0.0)","detail":"\#($0.1)"}"# }
        return #"{"errors":[\#(elements.joined(separator: ","))]}"#
    }
}
