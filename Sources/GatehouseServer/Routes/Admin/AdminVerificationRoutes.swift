import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire
import GatehouseFormats

/// Operator API for verification: OTP applications, their templates, balances, the outbox.
enum AdminVerificationRoutes {
    static func register(on admin: AdminRegistrar, engine: VerificationEngine, database: any Database, directory: TenantDirectory) {
        let settings = OTPApplicationSettingsBody.self
        admin.on(AdminWire.Endpoints.createOTPApplication, status: 201, fields: settings.fields, integers: settings.integers, emptyIsObject: true) {
            body, context in
            let (app, secret) = try await engine.createApplication(tenantID: context.parameter("tenantId"), settings: try OTPApplicationSettings(body))
            return AdminWire.CreatedOTPApplication(application: .init(app), secret: secret)
        }
        admin.on(AdminWire.Endpoints.listOTPApplications) { _, context in
            AdminWire.List(data: try await engine.applications(tenantID: context.parameter("tenantId")).map(AdminWire.OTPApplication.init))
        }
        admin.on(AdminWire.Endpoints.listTestNumbers) { _, context in
            AdminWire.List(data: try await engine.testNumbers(tenantID: context.parameter("tenantId")).map(AdminWire.TestNumber.init))
        }
        admin.on(AdminWire.Endpoints.addTestNumber, status: 201, fields: ["destination", "code", "confirmed"]) { body, context in
            let tenantID = context.parameter("tenantId")
            _ = try await directory.tenant(id: tenantID)
            let saved = try await engine.saveTestNumber(tenantID: tenantID, destination: body.destination, code: body.code, confirmed: body.confirmed ?? false)
            return AdminWire.TestNumber(saved)
        }
        admin.on(AdminWire.Endpoints.removeTestNumber) { _, context in
            try await engine.removeTestNumber(tenantID: context.parameter("tenantId"), destination: context.parameter("destination"))
            return NoBody()
        }
        PrefixBlockRoutes.register(on: admin, engine: engine, directory: directory)
        admin.on(AdminWire.Endpoints.getOTPApplication) { _, context in
            var shown = AdminWire.OTPApplication(try await engine.application(tenantID: context.parameter("tenantId"), id: context.parameter("appId")))
            shown.lastCallbackFailure = try await engine.lastCallbackFailure(applicationID: shown.id).map {
                AdminWire.CallbackFailure(reason: $0.reason, at: WireDate.string($0.at))
            }
            return shown
        }
        admin.on(AdminWire.Endpoints.updateOTPApplication, fields: settings.fields, integers: settings.integers, emptyIsObject: true) { body, context in
            AdminWire.OTPApplication(try await engine.updateApplication(
                tenantID: context.parameter("tenantId"), id: context.parameter("appId"), settings: try OTPApplicationSettings(body)))
        }
        /// Sets (`body`) or removes (nil) the template of the path's group, channel and language.
        @Sendable func setTemplate(_ context: RequestContext, body: String?) async throws -> NoBody {
            guard let channel = VerificationChannel(rawValue: context.parameter("channel")) else {
                throw CoreError(.notFound, .field("channel", .oneOf(["sms", "callout"])))
            }
            let group = context.parameter("group")
            try await engine.setTemplate(
                tenantID: context.parameter("tenantId"), applicationID: context.parameter("appId"),
                group: group == "_default" ? "" : group, channel: channel, language: context.parameter("language"), body: body)
            return NoBody()
        }
        admin.on(AdminWire.Endpoints.putTemplate, fields: ["body"]) { body, context in try await setTemplate(context, body: body.body) }
        admin.on(AdminWire.Endpoints.deleteTemplate) { _, context in try await setTemplate(context, body: nil) }
        admin.on(AdminWire.Endpoints.getVerificationBalance) { _, context in
            AdminWire.Balance(balance: Money.string(try await engine.balance(tenantID: context.parameter("tenantId"))))
        }
        admin.on(AdminWire.Endpoints.adjustVerificationBalance, fields: ["amount"]) { body, context in
            guard let micros = Money.signedMicros(body.amount) else {
                throw CoreError.invalid("amount", .decimal(example: "10.00"))
            }
            return AdminWire.Balance(balance: Money.string(try await engine.adjustBalance(tenantID: context.parameter("tenantId"), byMicros: micros)))
        }
        admin.on(AdminWire.Endpoints.readOutbox) { request, _ in
            guard let to = request.queryValue("to"), !to.isEmpty else { throw CoreError.invalid("query parameter to", .required) }
            let recipient = to.contains("@") ? to.lowercased() : Destination.digits(to)
            let messages = try await DevelopmentOutbox.messages(in: database, to: recipient)
            return AdminWire.List(data: messages.map {
                AdminWire.OutboxMessage(to: $0.to, channel: $0.channel.rawValue, body: $0.body, createdAt: WireDate.string($0.createdAt))
            })
        }
    }
}

extension AdminWire.TestNumber {
    init(_ number: TestNumber) {
        self.init(
            destination: number.destination.contains("@") ? number.destination : "+" + number.destination, code: number.code,
            confirmed: number.confirmed, createdAt: WireDate.string(number.createdAt))
    }
}
