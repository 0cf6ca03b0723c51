import GatehouseWire

/// The SMS-pumping guard's blocks and the conversion it compares (issue 14 §2).
extension AdminDocument {
    static var prefixBlocks: [Operation] {
        let block = AdminWire.PrefixBlock(
            applicationId: nil, applicationName: nil, prefix: "+447400", country: nil, reason: "operator", sent: 0, verified: 0, baseline: nil,
            blockedAt: at, blockedUntil: nil, liftedAt: nil, active: true)
        var lift = operation(.delete, "/tenants/:tenantId/prefix-blocks/:prefix", "liftPrefixBlock", "Lift a prefix's active block", .empty())
        lift.query = [Parameter(name: "applicationId", description: "the application's block; without it, the tenant's")]
        return [
            operation(.get, "/tenants/:tenantId/prefix-blocks", "listPrefixBlocks", "Blocked prefixes, the guard's and the operator's",
                .ok(.ref("PrefixBlockList"), .wire(AdminWire.List(data: [block])))),
            operation(.post, "/tenants/:tenantId/prefix-blocks", "pinPrefixBlock", "Block a prefix for one application or the whole tenant",
                body: .json(.ref("PrefixBlockRequest"), example: .wire(AdminWire.PrefixBlockRequest(prefix: "+447400"))),
                .ok(.ref("PrefixBlock"), .wire(block), status: 201, links: [
                    Link(name: "lift", operationId: "liftPrefixBlock", parameters: ["tenantId": "$request.path.tenantId", "prefix": "$response.body#/prefix"]),
                ])),
            lift,
            operation(.get, "/tenants/:tenantId/otp-applications/:appId/conversion", "getConversion",
                "The last hour's codes sent and verified per prefix and country, and the application's baseline",
                .ok(.ref("Conversion"), .wire(AdminWire.Conversion(baseline: 0.82, prefixes: [.init(value: "+447400", sent: 12, verified: 10)],
                    countries: [.init(value: "GB", sent: 12, verified: 10)])))),
        ]
    }
}
