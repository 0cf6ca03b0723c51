import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseVerificationEngine

/// The verification engine (DIDWW dialect, the delivery queue and the pumping guard), its
/// delivery providers and its routes.
struct VerificationAssembly {
    let engine: VerificationEngine
    /// Sends the codes that starts and sign-ins queue.
    let dispatcher: DeliveryDispatcher

    init(_ node: NodeParts) throws {
        engine = VerificationEngine(
            environment: node.environment, delivery: try Self.delivery(node.settings, environment: node.environment, sink: node.logSink),
            settings: node.settings.verification)
        dispatcher = DeliveryDispatcher(engine: engine)
    }

    func register(on router: Router, admin: AdminRegistrar, directory: TenantDirectory, node: NodeParts) {
        let settings = node.settings
        AdminVerificationRoutes.register(on: admin, engine: engine, database: node.environment.database, directory: directory)
        VerificationRoutes.register(on: router, engine: engine, logger: node.logger)
        if node.isDevelopment { DevelopmentCallbackRoutes.register(on: router, engine: engine) }
        let providersOn = settings.deliveryProviders != nil
        DeliveryReceiptRoutes.register(
            on: router, engine: engine, twilioAuthToken: providersOn ? settings.twilioAuthToken : nil,
            vonage: providersOn ? settings.vonageSignatureSecret.map {
                .init(secret: $0, method: settings.vonageSignatureMethod, applicationId: settings.vonageApplicationId)
            } : nil,
            clock: node.environment.clock, publicURL: node.publicBase)
    }

    /// The development outbox unless a provider bridge is configured. In development the
    /// outbox also prints each message, unredacted, so a developer can read the code.
    static func delivery(_ settings: Settings, environment: Environment, sink: any LogSink) throws -> any MessageDelivery {
        let phone = try phoneDelivery(settings, environment: environment, sink: sink)
        guard let host = settings.smtpHost else {
            // SMS providers send no email: without an SMTP server, email stays in the outbox.
            return settings.deliveryProviders == nil ? phone : ChannelDelivery(phone: phone, email: outbox(settings, environment: environment, sink: sink))
        }
        let email = SMTPDelivery(
            host: host, port: settings.smtpPort, from: settings.smtpFrom, username: settings.smtpUsername, password: settings.smtpPassword,
            security: settings.smtpSecurity, timeout: 15, totalTimeout: settings.verification.deliveryDeadline, clock: environment.clock,
            subject: settings.smtpSubject)
        return ChannelDelivery(phone: phone, email: email)
    }

    /// SMS and voice: the providers `delivery-providers` names, else the provider bridge if
    /// configured, else the outbox (which also takes email while no SMTP server is configured).
    static func phoneDelivery(_ settings: Settings, environment: Environment, sink: any LogSink) throws -> any MessageDelivery {
        if let providers = try GatehouseApp.providerDelivery(settings, environment: environment) { return providers }
        if let url = settings.deliveryWebhookURL {
            guard let target = URL(string: url), let secret = settings.deliveryWebhookSecret else {
                throw SettingsError("delivery-webhook-url needs a valid URL and delivery-webhook-secret")
            }
            return WebhookDelivery(url: target, secret: secret, http: environment.http, clock: environment.clock)
        }
        return outbox(settings, environment: environment, sink: sink)
    }

    /// The development outbox; in development it also prints each message, unredacted.
    static func outbox(_ settings: Settings, environment: Environment, sink: any LogSink) -> any MessageDelivery {
        guard settings.mode == .development else { return DevelopmentOutbox(database: environment.database) }
        return DevelopmentOutbox(database: environment.database) { message in
            sink.write("outbox: \(message.channel.rawValue) to \(message.to): \(message.body)")
        }
    }
}
