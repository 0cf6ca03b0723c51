import GatehouseWire

/// The SMS-pumping guard's blocks and the conversion it compares (issue 14 §2).
extension AdminDocument {
    static var prefixBlocks: [Operation] {
        let block = AdminWire.PrefixBlock(
            applicationId: nil, applicationName: nil, prefix: "+447400", country: nil, reason: "operator", sent: 0, verified: 0, baseline: nil,
            blockedAt: at, blockedUntil: nil, liftedAt: nil, active: true)
        var lift = operation(AdminWire.Endpoints.liftPrefixBlock, .empty())
        lift.query = [Parameter(name: "applicationId", description: "the application's block; without it, the tenant's")]
        return [
            operation(AdminWire.Endpoints.listPrefixBlocks,
                .ok(.ref("PrefixBlockList"), .wire(AdminWire.List(data: [block])))),
            operation(AdminWire.Endpoints.pinPrefixBlock,
                body: .json(.ref("PrefixBlockRequest"), example: .wire(AdminWire.PrefixBlockRequest(prefix: "+447400"))),
                .ok(.ref("PrefixBlock"), .wire(block), status: 201, links: [
                    Link(name: "lift", operationId: "liftPrefixBlock", parameters: ["tenantId": "$request.path.tenantId", "prefix": "$response.body#/prefix"]),
                ])),
            lift,
            operation(AdminWire.Endpoints.getConversion,
                .ok(.ref("Conversion"), .wire(AdminWire.Conversion(baseline: 0.82, prefixes: [.init(value: "+447400", sent: 12, verified: 10)],
                    countries: [.init(value: "GB", sent: 12, verified: 10)])))),
        ]
    }
}
