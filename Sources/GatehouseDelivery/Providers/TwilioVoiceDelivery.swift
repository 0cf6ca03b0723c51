import Foundation
import GatehouseCore

/// Reads `.voice` messages out in a call with Twilio Programmable Voice:
/// `POST /2010-04-01/Accounts/{AccountSid}/Calls.json` with `To`, `From`, inline `Twiml` and
/// optionally `StatusCallback`. The TwiML says the body twice with a pause between, in the
/// message's language; the body already spaces the code's digits, so they are read one by
/// one. The receipt carries the call SID (`CA…`).
public struct TwilioVoiceDelivery: MessageDelivery {
    /// Twilio refuses a longer `Twiml` parameter.
    public static let maximumTwiMLLength = 4000

    let account: TwilioAccount
    let from: String
    let voice: String?
    let statusCallback: URL?
    let exchange: ProviderExchange

    /// - Parameters:
    ///   - from: a Twilio number in E.164 (`+15005550006`) or a verified caller ID.
    ///   - voice: `<Say voice="…">` (`alice`, `Polly.Joanna`, `Google.en-US-Standard-C`); nil
    ///     keeps Twilio's default. Which languages a voice speaks is Twilio's list.
    ///   - statusCallback: where Twilio posts the call's final status.
    ///   - timeout, retry: as for `TwilioSMSDelivery`.
    public init(
        account: TwilioAccount, from: String, voice: String? = nil, statusCallback: URL? = nil, http: any OutboundHTTP,
        clock: any Clock, timeout: TimeInterval = 10, retry: DeliveryRetryPolicy = .standard
    ) {
        self.account = account
        self.from = from
        self.voice = voice
        self.statusCallback = statusCallback
        exchange = ProviderExchange(name: "Twilio", http: http, clock: clock, timeout: timeout, retry: retry, secrets: [account.password])
    }

    public func deliver(_ message: OutboundMessage) async throws {
        _ = try await send(message)
    }

    public func send(_ message: OutboundMessage) async throws -> DeliveryReceipt {
        guard message.channel == .voice else { throw DeliveryError("Twilio Voice cannot send a \(message.channel.rawValue) message") }
        let twiml = Self.twiml(saying: message.body, language: message.language, voice: voice)
        guard twiml.count <= Self.maximumTwiMLLength else {
            throw DeliveryError("call script is longer than Twilio's \(Self.maximumTwiMLLength) characters")
        }
        var fields = [("To", try ProviderFields.e164(message.to)), ("From", from), ("Twiml", twiml)]
        if let statusCallback { fields.append(("StatusCallback", statusCallback.absoluteString)) }
        let sid = try await account.create("Calls", fields, exchange: exchange)
        return DeliveryReceipt(provider: "twilio", messageId: sid)
    }

    /// `<Response><Say>text</Say><Pause length="1"/><Say>text</Say></Response>`, the text
    /// XML-escaped and the language a well-formed tag (`en-US` otherwise), so nothing in a
    /// message can add TwiML verbs of its own.
    static func twiml(saying text: String, language: String?, voice: String?) -> String {
        var attributes = " language=\"\(xmlEscaped(ProviderFields.spokenLanguage(language)))\""
        if let voice { attributes += " voice=\"\(xmlEscaped(voice))\"" }
        let say = "<Say\(attributes)>\(xmlEscaped(text))</Say>"
        return "<Response>\(say)<Pause length=\"1\"/>\(say)</Response>"
    }

    /// The text with XML's five special characters as entities.
    static func xmlEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            // XML 1.0 has no form, escaped or not, for the other C0 controls.
            case _ where character.unicodeScalars.contains(where: { $0.value < 0x20 && ![9, 10, 13].contains($0.value) }):
                escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
