import Foundation
import GatehouseCore
import GatehouseDelivery

/// SMS and voice through the providers `delivery-providers` names, in failover order: each
/// one's SMS and voice adapter with its credentials from the settings (never logged).
extension GatehouseApp {
    static func providerDelivery(_ settings: Settings, environment: Environment) throws -> (any MessageDelivery)? {
        guard let list = settings.deliveryProviders else { return nil }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        let providers = try names.map { name -> any MessageDelivery in
            switch name {
            case "twilio": return try twilio(settings, environment: environment)
            case "vonage": return try vonage(settings, environment: environment)
            default: throw SettingsError("delivery-providers: unknown provider \(name) (twilio, vonage)")
            }
        }
        return providers.count == 1 ? providers[0] : FailoverDelivery(providers)
    }

    static func twilio(_ settings: Settings, environment: Environment) throws -> any MessageDelivery {
        let base = settings.twilioApiURL ?? TwilioAccount.defaultBaseURL
        let account: TwilioAccount
        switch (settings.twilioAccountSid, settings.twilioApiKeySid, settings.twilioApiKeySecret, settings.twilioAuthToken) {
        case (let sid?, let key?, let secret?, _): account = TwilioAccount(accountSid: sid, apiKeySid: key, apiKeySecret: secret, baseURL: base)
        case (_, .some, nil, _), (_, nil, .some, _): throw SettingsError("twilio-api-key-sid and twilio-api-key-secret go together")
        case (let sid?, nil, nil, let token?): account = TwilioAccount(accountSid: sid, authToken: token, baseURL: base)
        default:
            throw SettingsError("delivery-providers names twilio, which needs twilio-account-sid and twilio-auth-token (or an API key)")
        }
        let sender: TwilioSMSDelivery.Sender
        if let service = settings.twilioMessagingServiceSid {
            sender = .messagingService(sid: service)
        } else if let from = settings.twilioFrom {
            sender = .from(from)
        } else {
            throw SettingsError("twilio needs twilio-from (or twilio-messaging-service-sid for SMS)")
        }
        // Receipts come back to /webhooks/delivery/twilio when the server knows its public address
        // and holds the auth token, which checks their signature (an API key cannot).
        let callback = settings.twilioAuthToken == nil ? nil : receiptURL(settings, DeliveryReceiptRoutes.twilioPath)
        let sms = TwilioSMSDelivery(account: account, sender: sender, statusCallback: callback, http: environment.http, clock: environment.clock)
        guard let from = settings.twilioFrom else { return ChannelDelivery(sms: sms, voice: NoVoice(provider: "twilio")) }
        return ChannelDelivery(
            sms: sms, voice: TwilioVoiceDelivery(account: account, from: from, statusCallback: callback, http: environment.http, clock: environment.clock))
    }

    static func vonage(_ settings: Settings, environment: Environment) throws -> any MessageDelivery {
        guard let key = settings.vonageApiKey, let secret = settings.vonageApiSecret, let from = settings.vonageFrom else {
            throw SettingsError("delivery-providers names vonage, which needs vonage-api-key, vonage-api-secret and vonage-from")
        }
        // Receipts come back to /webhooks/delivery/vonage when they can be checked there.
        let callback = settings.vonageSignatureSecret == nil ? nil : receiptURL(settings, DeliveryReceiptRoutes.vonagePath)
        let sms = VonageSMSDelivery(
            apiKey: key, apiSecret: secret, from: from, callback: callback, baseURL: settings.vonageSmsURL ?? VonageSMSDelivery.defaultBaseURL, http: environment.http,
            clock: environment.clock)
        guard let application = settings.vonageApplicationId, let keyFile = settings.vonagePrivateKeyFile else {
            return ChannelDelivery(sms: sms, voice: NoVoice(provider: "vonage"))
        }
        guard let pem = try? String(contentsOfFile: keyFile, encoding: .utf8) else { throw SettingsError("cannot read vonage-private-key-file \(keyFile)") }
        let voice: VonageVoiceDelivery
        do {
            voice = try VonageVoiceDelivery(
                applicationId: application, privateKeyPEM: pem, from: from.filter(\.isNumber), eventURL: callback, baseURL: settings.vonageVoiceURL ?? VonageVoiceDelivery.defaultBaseURL,
                http: environment.http, clock: environment.clock, random: environment.random)
        } catch {
            throw SettingsError("vonage-private-key-file must hold an RSA private key of 2048 bits or more (PEM)")
        }
        return ChannelDelivery(sms: sms, voice: voice)
    }
}

extension GatehouseApp {
    /// `path` under `public-url`; nil when the server does not know its public address.
    static func receiptURL(_ settings: Settings, _ path: String) -> URL? {
        settings.publicURL.flatMap { base in URL(string: (base.hasSuffix("/") ? String(base.dropLast()) : base) + path) }
    }
}

/// A provider configured for SMS only: a call is refused, so failover moves to the next provider.
struct NoVoice: MessageDelivery {
    let provider: String
    func deliver(_ message: OutboundMessage) async throws {
        throw DeliveryError("\(provider) is configured for SMS only (voice needs its settings)")
    }
}
