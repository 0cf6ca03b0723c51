
/// The admin API's shapes (`AdminWire`), by component name.
enum AdminSchemas {
    static let list = { (item: String) in Schema.object(["data": .array(.ref(item))]) }

    static let core: [String: Schema] = [
        "Error": .object(["error": .object(["code": .string, "message": .string, "requestId": .string], optional: ["requestId"])]),
        "CreateTenant": .object(["name": .string]),
        "CreateApplication": .object(["name": .string]),
        "CreateKey": .object(["label": .string, "applicationId": .string, "platform": .oneOf(["IOS", "ANDROID", "WEB"])], optional: ["applicationId", "platform"]),
        "Tenant": .object(["id": .string, "name": .string, "createdAt": .dateTime, "disabled": .boolean]),
        "Application": .object(["id": .string, "tenantId": .string, "name": .string, "createdAt": .dateTime]),
        "Key": .object([
            "id": .string, "tenantId": .string, "applicationId": .string, "label": .string, "platform": .string, "createdAt": .dateTime,
            "revoked": .boolean,
        ], optional: ["applicationId", "platform"]),
        "IssuedKey": .object(["key": .ref("Key"), "secret": .string]),
        "TenantList": list("Tenant"), "ApplicationList": list("Application"), "KeyList": list("Key"),
    ]

    static let verification: [String: Schema] = [
        "OTPApplicationSettings": .object([
            "name": .string, "minimumAuth": .oneOf(["public", "basic", "application"]), "callbackUrl": Schema.string.orNull,
            "smsDomain": Schema.string.orNull, "codeLength": .integer(minimum: 4, maximum: 8), "lifetimeSeconds": .integer(minimum: 60, maximum: 600),
            "maxAttempts": .integer(minimum: 1), "paused": .boolean, "disabledCountries": .array(.string), "dailyLimit": Schema.integer.orNull,
            "monthlyLimit": Schema.integer.orNull, "cooldownSeconds": .integer(minimum: 0), "smsFee": .string, "calloutFee": .string,
            "prefixHourlyLimit": Schema.integer(minimum: 1).orNull, "prefixDailyLimit": Schema.integer(minimum: 1).orNull,
            "countryHourlyLimit": Schema.integer(minimum: 1).orNull, "countryDailyLimit": Schema.integer(minimum: 1).orNull,
            "autoBlockPrefixes": .boolean,
        ], optional: OTPApplicationSettingsBody.fields),
        "OTPApplication": .object([
            "id": .string, "tenantId": .string, "name": .string, "appKey": .string, "minimumAuth": .oneOf(["public", "basic", "application"]),
            "callbackUrl": Schema.string.orNull, "smsDomain": Schema.string.orNull, "codeLength": .integer, "lifetimeSeconds": .integer,
            "maxAttempts": .integer, "paused": .boolean, "disabledCountries": .array(.string), "dailyLimit": Schema.integer.orNull,
            "monthlyLimit": Schema.integer.orNull, "cooldownSeconds": .integer, "smsFee": .string, "calloutFee": .string, "createdAt": .dateTime,
            "prefixHourlyLimit": Schema.integer.orNull, "prefixDailyLimit": Schema.integer.orNull, "countryHourlyLimit": Schema.integer.orNull,
            "countryDailyLimit": Schema.integer.orNull, "autoBlockPrefixes": .boolean,
            "lastCallbackFailure": .object(["reason": .string, "at": .dateTime]),
        ], optional: ["lastCallbackFailure"]),
        "CreatedOTPApplication": .object(["application": .ref("OTPApplication"), "secret": .string]),
        "OTPApplicationList": list("OTPApplication"),
        "Template": .object(["body": .string.described("The message; {{CODE}} stands for the code")]),
        "TestNumber": .object(["destination": .string, "code": .string(pattern: "^[0-9]{4,8}$"), "confirmed": .boolean, "createdAt": .dateTime],
            optional: ["confirmed", "createdAt"]),
        "TestNumberList": list("TestNumber"),
        "BalanceChange": .object(["amount": .string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#)]),
        "Balance": .object(["balance": .string]),
        "OutboxMessage": .object(["to": .string, "channel": .string, "body": .string, "createdAt": .dateTime]),
        "OutboxList": list("OutboxMessage"),
        "PrefixBlockRequest": .object(["prefix": .string, "applicationId": .string], optional: ["applicationId"]),
        "PrefixBlock": .object([
            "applicationId": Schema.string.orNull, "applicationName": Schema.string.orNull, "prefix": .string, "country": Schema.string.orNull,
            "reason": .string, "sent": .integer, "verified": .integer, "baseline": Schema.number.orNull, "blockedAt": .dateTime,
            "blockedUntil": Schema.dateTime.orNull, "liftedAt": Schema.dateTime.orNull, "active": .boolean,
        ]),
        "PrefixBlockList": list("PrefixBlock"),
        "Conversion": .object([
            "baseline": .number,
            "prefixes": .array(.object(["value": .string, "sent": .integer, "verified": .integer])),
            "countries": .array(.object(["value": .string, "sent": .integer, "verified": .integer])),
        ]),
    ]
}
