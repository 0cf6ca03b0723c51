import Foundation
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// Reads `{"data": {...}}` bodies the way the vendor's server does: the body must hold a
/// `data` object (else 400 `parameter_missing`), unknown keys are dropped, and a known key
/// with a value of the wrong type fails that field's validation.
enum VerificationRequestBody {
    static func data(_ request: Request) throws -> [String: JSONValue] {
        guard case .object(let object)? = try? JSONValue(parsing: request.body), case .object(let data)? = object["data"]
        else { throw DIDWWError(.parameterMissing) }
        return data
    }

    static func start(_ request: Request) throws -> StartRequest {
        let data = try data(request)
        var errors: [VerificationErrorCode] = []
        let destination = field(data["destination"], invalid: .destinationInvalid, errors: &errors)
        let method = field(data["delivery_method"], invalid: .deliveryMethodUnknown, errors: &errors)
        var start = StartRequest(destination: destination, deliveryMethod: method)
        // Only the block of the chosen channel is read; another channel's block is ignored.
        if let method, let block = data[method] {
            if case .object(let block) = block {
                if let languages = block["languages"], languages != .null {
                    if let list = languages.strings {
                        start.languages = list
                    } else {
                        errors.append(.languagesInvalid)
                    }
                }
                if method == "sms" {
                    start.appHash = field(block["app_hash"], invalid: .appHashInvalid, errors: &errors)
                    start.autofill = autofill(block["autofill"], errors: &errors)
                }
                start.templateGroup = field(block["template_group"], invalid: .validationFailed, errors: &errors)
            } else if block != .null {
                errors.append(.validationFailed)
            }
        }
        start.custom = field(data["custom"], invalid: .validationFailed, errors: &errors)
        if !errors.isEmpty {
            // Report type errors together with the engine's own field checks.
            do { _ = try ValidStartProbe.validate(start) } catch let failure as VerificationFailure {
                errors += failure.codes.filter { !errors.contains($0) }
            }
            throw VerificationFailure(errors)
        }
        return start
    }

    static func report(_ request: Request) throws -> (method: String?, code: String?) {
        let data = try data(request)
        var errors: [VerificationErrorCode] = []
        let method = field(data["delivery_method"], invalid: .deliveryMethodUnknown, errors: &errors)
        let code = field(data["code"], invalid: .codeInvalid, errors: &errors)
        if !errors.isEmpty { throw VerificationFailure(errors) }
        return (method, code)
    }

    /// `sms.autofill` in either form: the object `{"type", "value"}` that SDK 1.2 sends and
    /// responses echo, or the older string `"domain"` / `"none"`. `null` or absence is `nil`.
    /// A `type` that is not a string is `validation_failed`; a `value` that is not a string is
    /// `app_hash_invalid` for a hash and `validation_failed` otherwise. Other keys are
    /// dropped, like unknown keys anywhere in the body; a `value` beside `domain` or `none`
    /// is ignored (the domain is the application's own).
    private static func autofill(_ value: JSONValue?, errors: inout [VerificationErrorCode]) -> AutofillRequest? {
        guard let value, value != .null else { return nil }
        if let text = value.string { return AutofillRequest(type: text, value: nil) }
        guard let object = value.object, let type = object["type"]?.string else {
            errors.append(.validationFailed)
            return nil
        }
        let raw = object["value"].flatMap { $0 == .null ? nil : $0 }
        if let raw, raw.string == nil {
            errors.append(type == "app_hash" ? .appHashInvalid : .validationFailed)
            return nil
        }
        return AutofillRequest(type: type, value: raw?.string)
    }

    /// A string field; `null` or absence is `nil`; another type records `invalid`.
    private static func field(_ value: JSONValue?, invalid: VerificationErrorCode, errors: inout [VerificationErrorCode]) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.string else {
            errors.append(invalid)
            return nil
        }
        return text
    }
}

/// Runs the engine's field validation without starting anything, to merge error lists.
enum ValidStartProbe {
    static func validate(_ request: StartRequest) throws {
        try VerificationEngine.validate(request)
    }
}
