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
        admin.on(AdminWire.Endpoints.createOTPApplication, .async { request, context in
            let settings = try OTPApplicationSettingsBody.decode(request)
            let (app, secret) = try await engine.createApplication(tenantID: context.parameter("tenantId"), settings: settings)
            return try .json(AdminWire.CreatedOTPApplication(application: .init(app), secret: secret), status: 201)
        })
        admin.on(AdminWire.Endpoints.listOTPApplications, .async { _, context in
            let apps = try await engine.applications(tenantID: context.parameter("tenantId"))
            return try .json(AdminWire.List(data: apps.map(AdminWire.OTPApplication.init)))
        })
        admin.on(AdminWire.Endpoints.listTestNumbers, .async { _, context in
            try .json(AdminWire.List(data: try await engine.testNumbers(tenantID: context.parameter("tenantId")).map(AdminWire.TestNumber.init)))
        })
        admin.on(AdminWire.Endpoints.addTestNumber, .async { request, context in
            let body = try StrictJSON.decode(AdminWire.TestNumber.self, from: request, fields: ["destination", "code", "confirmed"])
            let tenantID = context.parameter("tenantId")
            _ = try await directory.tenant(id: tenantID)
            let saved = try await engine.saveTestNumber(tenantID: tenantID, destination: body.destination, code: body.code, confirmed: body.confirmed ?? false)
            return try .json(AdminWire.TestNumber(saved), status: 201)
        })
        admin.on(AdminWire.Endpoints.removeTestNumber, .async { _, context in
            try await engine.removeTestNumber(tenantID: context.parameter("tenantId"), destination: context.parameter("destination"))
            return .empty()
        })
        PrefixBlockRoutes.register(on: admin, engine: engine, directory: directory)
        admin.on(AdminWire.Endpoints.getOTPApplication, .async { _, context in
            var shown = AdminWire.OTPApplication(try await engine.application(tenantID: context.parameter("tenantId"), id: context.parameter("appId")))
            shown.lastCallbackFailure = try await engine.lastCallbackFailure(applicationID: shown.id).map {
                AdminWire.CallbackFailure(reason: $0.reason, at: WireDate.string($0.at))
            }
            return try .json(shown)
        })
        admin.on(AdminWire.Endpoints.updateOTPApplication, .async { request, context in
            let settings = try OTPApplicationSettingsBody.decode(request)
            let app = try await engine.updateApplication(tenantID: context.parameter("tenantId"), id: context.parameter("appId"), settings: settings)
            return try .json(AdminWire.OTPApplication(app))
        })
        let template: Handler = .async { request, context in
            guard let channel = VerificationChannel(rawValue: context.parameter("channel")) else {
                throw CoreError(.notFound, .field("channel", .oneOf(["sms", "callout"])))
            }
            var body: String?
            if request.method != .DELETE {
                struct Template: Decodable { let body: String }
                body = try StrictJSON.decode(Template.self, from: request, fields: ["body"]).body
            }
            let group = context.parameter("group")
            try await engine.setTemplate(
                tenantID: context.parameter("tenantId"), applicationID: context.parameter("appId"),
                group: group == "_default" ? "" : group, channel: channel, language: context.parameter("language"), body: body)
            return .empty()
        }
        admin.on(AdminWire.Endpoints.putTemplate, template)
        admin.on(AdminWire.Endpoints.deleteTemplate, template)
        admin.on(AdminWire.Endpoints.getVerificationBalance, .async { _, context in
            try .json(AdminWire.Balance(balance: Money.string(try await engine.balance(tenantID: context.parameter("tenantId")))))
        })
        admin.on(AdminWire.Endpoints.adjustVerificationBalance, .async { request, context in
            struct Credit: Decodable { let amount: String }
            let credit = try StrictJSON.decode(Credit.self, from: request, fields: ["amount"])
            guard let micros = Money.signedMicros(credit.amount) else {
                throw CoreError.invalid("amount", .decimal(example: "10.00"))
            }
            let balance = try await engine.adjustBalance(tenantID: context.parameter("tenantId"), byMicros: micros)
            return try .json(AdminWire.Balance(balance: Money.string(balance)))
        })
        admin.on(AdminWire.Endpoints.readOutbox, .async { request, _ in
            guard let to = request.queryValue("to"), !to.isEmpty else { throw CoreError.invalid("query parameter to", .required) }
            let recipient = to.contains("@") ? to.lowercased() : Destination.digits(to)
            let messages = try await DevelopmentOutbox.messages(in: database, to: recipient)
            return try .json(AdminWire.List(data: messages.map {
                AdminWire.OutboxMessage(to: $0.to, channel: $0.channel.rawValue, body: $0.body, createdAt: WireDate.string($0.createdAt))
            }))
        })
    }
}

extension AdminWire.TestNumber {
    init(_ number: TestNumber) {
        self.init(
            destination: number.destination.contains("@") ? number.destination : "+" + number.destination, code: number.code,
            confirmed: number.confirmed, createdAt: WireDate.string(number.createdAt))
    }
}
