import GatehousePossessionEngine
import GatehouseWire

// Between the dialect's wire types and the possession engine's own.

extension StartInput {
    init(_ body: ProveWire.StartRequest) {
        self.init(
            flowType: body.flowType, phoneNumber: body.phoneNumber, finalTargetUrl: body.finalTargetUrl, ssn: body.ssn, dob: body.dob,
            emailAddress: body.emailAddress, ipAddress: body.ipAddress, smsMessage: body.smsMessage, allowOTPRetry: body.allowOTPRetry ?? false)
    }
}

extension Individual {
    init(_ wire: ProveWire.Individual) {
        self.init(
            firstName: wire.firstName, lastName: wire.lastName, addresses: (wire.addresses ?? []).map(PostalAddress.init),
            emailAddresses: wire.emailAddresses ?? [], dob: wire.dob, ssn: wire.ssn)
    }
}

extension PostalAddress {
    init(_ wire: ProveWire.Address) {
        self.init(address: wire.address, extendedAddress: wire.extendedAddress, city: wire.city, region: wire.region, postalCode: wire.postalCode)
    }
}

extension ProveWire.Individual {
    init(_ individual: Individual) {
        // Prove leaves empty arrays out of its answers (its Go models are `omitempty` throughout).
        self.init(
            firstName: individual.firstName, lastName: individual.lastName,
            addresses: individual.addresses.isEmpty ? nil : individual.addresses.map(ProveWire.Address.init),
            emailAddresses: individual.emailAddresses.isEmpty ? nil : individual.emailAddresses, dob: individual.dob, ssn: individual.ssn)
    }
}

extension ProveWire.Address {
    init(_ address: PostalAddress) {
        self.init(address: address.address, extendedAddress: address.extendedAddress, city: address.city, region: address.region, postalCode: address.postalCode)
    }
}

extension ProveWire.IdentityVerification {
    init(_ comparison: IdentityComparison) {
        let source = ProveWire.DataSourceResult(
            name: comparison.nameScore.map { .init(firstName: comparison.firstName, lastName: comparison.lastName, nameScore: $0) },
            address: comparison.address.map {
                .init(street: $0.street, city: $0.city, region: $0.region, postalCode: $0.postalCode, addressScore: $0.score)
            },
            email: comparison.email.map { .init(emailAddress: $0) },
            identifiers: .init(dob: comparison.dob, last4: comparison.last4, ssn: comparison.ssn), cipConfidence: comparison.confidence,
            reasonCodes: comparison.reasonCodes.isEmpty ? nil : comparison.reasonCodes)  // left out when empty, as by Prove
        self.init(dataSource1: source, multiCIPConfidence: comparison.confidence)
    }
}
