import GatehouseCore

/// How a core refusal reads in the dialects' messages.
extension CoreError {
    var text: String {
        switch reason {
        case .noSuch(.prefixBlock): "no active block of that prefix"
        case .noSuch(let thing): "no such \(thing.noun)"
        case .field(let field, let rule): rule.sentence(field)
        case .testDestinationNotReserved(let isEmail):
            "\(isEmail ? "that address" : "that number") is not in a reserved range (555-01xx in North America, "
                + "+44 7700 900xxx, +61 491 57x xxx, example.com or .test addresses): set confirmed to make a number you own a test number"
        case .tenantHoldsMost(let thing, let limit): "a tenant may hold at most \(limit) \(thing.noun)s"
        case .balanceOutOfRange: "the amount would take the balance out of its range"
        case .notSetUp(let what): "\(what) is not set up"
        }
    }
}

extension CoreError.Thing {
    var noun: String {
        switch self {
        case .tenant: "tenant"
        case .application: "application"
        case .key: "key"
        case .testNumber: "test number"
        case .prefixBlock: "prefix block"
        }
    }
}
