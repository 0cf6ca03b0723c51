import Foundation
import GatehouseHTTP
import GatehouseVerificationEngine
import GatehouseWire

/// Reads `{"data": {...}}` bodies through the shared wire types, the way the vendor's server
/// does: the body must hold a `data` object (else 400 `parameter_missing`), unknown keys are
/// dropped, and a known key with a value of the wrong type fails that field's validation.
enum VerificationRequestBody {
    static func data<T: Decodable & Sendable>(_ type: T.Type, _ request: Request) throws -> T {
        guard let envelope = try? request.decodeBody(DIDWWWire.Envelope<T>.self, unknownKeys: .ignore) else {
            throw DIDWWError(.parameterMissing)
        }
        return envelope.data
    }

    static func start(_ request: Request) throws -> StartRequest {
        let data = try data(DIDWWWire.StartRequest.self, request)
        var errors: [VerificationErrorCode] = []
        var start = StartRequest(
            destination: value(data.destination, invalid: .destinationInvalid, errors: &errors),
            deliveryMethod: value(data.deliveryMethod, invalid: .deliveryMethodUnknown, errors: &errors))
        // Only the block of the chosen channel is read; another channel's block is ignored.
        switch data.deliveryMethod.value {
        case "sms":
            if data.sms.isInvalid { errors.append(.validationFailed) }
            if let block = data.sms.value {
                start.languages = value(block.languages, invalid: .languagesInvalid, errors: &errors)
                start.appHash = value(block.appHash, invalid: .appHashInvalid, errors: &errors)
                start.autofill = autofill(block.autofill, errors: &errors)
                start.templateGroup = value(block.templateGroup, invalid: .validationFailed, errors: &errors)
            }
        case "callout":
            if data.callout.isInvalid { errors.append(.validationFailed) }
            if let block = data.callout.value {
                start.languages = value(block.languages, invalid: .languagesInvalid, errors: &errors)
                start.templateGroup = value(block.templateGroup, invalid: .validationFailed, errors: &errors)
            }
        default:
            break
        }
        start.custom = value(data.custom, invalid: .validationFailed, errors: &errors)
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
        let data = try data(DIDWWWire.ReportRequest.self, request)
        var errors: [VerificationErrorCode] = []
        let method = value(data.deliveryMethod, invalid: .deliveryMethodUnknown, errors: &errors)
        let code = value(data.code, invalid: .codeInvalid, errors: &errors)
        if !errors.isEmpty { throw VerificationFailure(errors) }
        return (method, code)
    }

    /// `sms.autofill` in either form. A `value` that is not a string is `app_hash_invalid`
    /// for a hash and `validation_failed` otherwise; a `value` beside `domain` or `none` is
    /// ignored (the domain is the application's own).
    private static func autofill(_ field: DIDWWWire.Field<DIDWWWire.AutofillRequest>, errors: inout [VerificationErrorCode]) -> AutofillRequest? {
        switch field {
        case .missing: return nil
        case .invalid:
            errors.append(.validationFailed)
            return nil
        case .value(let autofill):
            if autofill.value.isInvalid {
                errors.append(autofill.type == "app_hash" ? .appHashInvalid : .validationFailed)
                return nil
            }
            return AutofillRequest(type: autofill.type, value: autofill.value.value)
        }
    }

    /// A field's value; another type records `invalid`.
    private static func value<T>(_ field: DIDWWWire.Field<T>, invalid: VerificationErrorCode, errors: inout [VerificationErrorCode]) -> T? {
        if field.isInvalid { errors.append(invalid) }
        return field.value
    }
}

/// Runs the engine's field validation without starting anything, to merge error lists.
enum ValidStartProbe {
    static func validate(_ request: StartRequest) throws {
        try VerificationEngine.validate(request)
    }
}
