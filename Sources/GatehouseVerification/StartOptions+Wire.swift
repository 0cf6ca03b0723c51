import GatehouseWire

extension SMSOptions {
    /// The start's `sms` block: only the keys that are set (no `app_hash`, which iOS does not offer).
    var wire: DIDWWWire.SMSOptions {
        DIDWWWire.SMSOptions(languages: languages, autofill: autofill?.wire, templateGroup: templateGroup)
    }
}

extension SMSOptions.Autofill {
    /// The object form of SDK 1.2, `{"type": "domain" | "none"}`, the shape replies echo
    /// (older servers took a string); no `value`.
    var wire: DIDWWWire.AutofillRequest {
        switch self {
        case .domain: return DIDWWWire.AutofillRequest(type: "domain")
        case .disabled: return DIDWWWire.AutofillRequest(type: "none")
        }
    }
}

extension CalloutOptions {
    /// The start's `callout` block: only the keys that are set.
    var wire: DIDWWWire.CalloutOptions {
        DIDWWWire.CalloutOptions(languages: languages, templateGroup: templateGroup)
    }
}
