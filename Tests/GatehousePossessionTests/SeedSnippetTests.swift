// The seed's snippets (Prove iOS SDK 6.4 how-to) with only the import and `ProveAuth` → `PossessionAuth`,
// `ProveAuthError` → `PossessionAuthError` changed: if the SDK's shape drifts from the seed's, this file
// stops compiling. SwiftUI is not on Linux, so `SheetObservable` is a plain class here and
// `@ObservedObject` stays where SwiftUI exists. The seed's `print` calls are caught by the file's own.
import Foundation
import GatehousePossession
#if canImport(SwiftUI)
import SwiftUI
#endif
import GatehouseTestEvents
import Testing

/// What the seed's ContentView observes; each change is also an event the tests await.
final class SheetObservable {
    let events = Events()
    var isPhoneValidationError = false { didSet { if isPhoneValidationError { events.record("phoneValidationError") } } }
    var isOtpStartActive = false { didSet { if isOtpStartActive { events.record("otpStart") } } }
    var isPhoneNumberNeeded = false
    var isOtpFinishActive = false { didSet { if isOtpFinishActive { events.record("otpFinish") } } }
}

#if canImport(SwiftUI)
extension SheetObservable: ObservableObject {}
#endif

let seedPrints = LineLog()
let seedPrinted = Events()

/// The seed's `print`, recorded.
fileprivate func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    seedPrints.append(items.map { "\($0)" }.joined(separator: separator))
    seedPrinted.record("print")
}

// MARK: - OtpStartStep example (seed, verbatim but for the names)

// Implementation of OtpStartStep protocol
class MobileOtpStartStep: OtpStartStep {
    #if canImport(SwiftUI)
    @ObservedObject var sheetObservable: SheetObservable
    #else
    var sheetObservable: SheetObservable
    #endif
    var callback: OtpStartStepCallback?

    init(sheetObservable: SheetObservable){
        self.sheetObservable = sheetObservable
    }

    // ProveAuth SDK calls this method when it is time to collect a customer's phone number for SMS OTP and/or obtain
    // the customer's confirmation to initiate the SMS message to the phone number provided
    // 'phoneNumberNeeded' argument indicates whether mobile app needs to collect the phone number
    func execute(phoneNumberNeeded: Bool, phoneValidationError: PossessionAuthError?, callback: OtpStartStepCallback) {
        // here - signal to ContentView to display OtpStartView
        DispatchQueue.main.async {
            // SDK returns phoneValidationError if the phone number provided is invalid or blocked
            if case .phoneNumberValidationError = phoneValidationError {
                self.sheetObservable.isPhoneValidationError = true
            } else {
                self.sheetObservable.isPhoneValidationError = false
            }
            self.sheetObservable.isOtpStartActive = true
            self.sheetObservable.isPhoneNumberNeeded = phoneNumberNeeded
            self.callback = callback
        }
    }

    // Here - return collected phone number string to SDK
    func handlePhoneNumber(phoneNumber: String? = nil) {
        guard let callback = self.callback else {
            print("Error: OtpStartStepCallback is not set ")
            return
        }
        if let phoneNumber = phoneNumber {
            let otpStartInput = OtpStartInput(phoneNumber: phoneNumber)
            // This is how you pass collected phone number to SDK
            callback.onSuccess(input: otpStartInput)
            return
        }
        // If phoneNumberNeeded = false (in the OtpStartStep.execute) and phone number was already provided in the initial server-to-server call to /start endpoint
        // Then return nil back to SDK, Prove Auth server already got the phone number
        // calling onSuccess here indicates that the customer's confirmation to send SMS was obtained
        callback.onSuccess(input: nil)
    }

    // Here - communicate to the SDK any issues while trying to obtain the phone number.
    // Error should be reported if the customer explicitly cancels the SMS OTP transaction or presses the back button to exit out the SMS OTP start step screen.
    func handleOtpStartError() {
        guard let callback = self.callback else {
            print("Error: OtpStartStepCallback is not set ")
            return
        }
        callback.onError()
    }
}

// MARK: - OtpFinishStep example (seed, verbatim but for the names)

// Implementation of OtpFinishStep protocol
class MobileOtpFinishStep: OtpFinishStep {
    #if canImport(SwiftUI)
    @ObservedObject var sheetObservable: SheetObservable
    #else
    var sheetObservable: SheetObservable
    #endif
    var callback: OtpFinishStepCallback?

    init(sheetObservable: SheetObservable){
        self.sheetObservable = sheetObservable
    }
    // SDK calls this method when it is time to collect OTP value delivered in the SMS message
    // otpError will be returned if OTP value was incorrect
    func execute(otpError: PossessionAuthError?, callback: OtpFinishStepCallback) {
        self.callback = callback
        // here - signal to ContentView to display OtpFinishView
        DispatchQueue.main.async {
            if case .otpValidationError = otpError {
                print("found otpError: \(String(describing: otpError?.localizedDescription))")
            }
            self.sheetObservable.isOtpFinishActive = true
        }
    }

    // Here - return the OTP value to the SDK
    func handleOtp(_ otp: String) {
        guard let callback = self.callback else {
            print("Error: OtpFinishStepCallback is not set ")
            return
        }
        let otpFinishInput = OtpFinishInput(otp: otp)
        callback.onSuccess(input: otpFinishInput)
    }

    // Here - communicate to the SDK any issues while trying to obtain the OTP value.
    // Error should be reported if the customer explicitly cancels the SMS OTP transaction or presses the back button to exit out the SMS OTP finish step screen.
    func handleOtpFinishError() {
        guard let callback = self.callback else {
            print("Error: OtpFinishStepCallback is not set ")
            return
        }
        callback.onError()
    }
}

// MARK: - What the seed leaves to the app

/// The seed's AuthFinish ("Object implementing ProveAuthFinishStep protocols"): here it records the authId
/// instead of calling the backend's /verify.
class FinishAuthStep: PossessionAuthFinishStep {
    let events = Events()
    var authId: String?
    func execute(authId: String) {
        self.authId = authId
        events.record("authFinish")
    }
}

/// The seed calls these without arguments.
extension MobileOtpStartStep { convenience init() { self.init(sheetObservable: SheetObservable()) } }
extension MobileOtpFinishStep { convenience init() { self.init(sheetObservable: SheetObservable()) } }

final class Messages { var finalResultMessage = "" }

/// Where the seed's `authenticate` snippet lives: an object with `messages` and the authenticator.
final class ContentModel {
    let messages = Messages()
    let proveAuthSdk: PossessionAuth
    init(proveAuthSdk: PossessionAuth) { self.proveAuthSdk = proveAuthSdk }

    func start(authToken: String) {
        // authToken retrieved from your server via StartAuthRequest
        proveAuthSdk.authenticate(authToken) { error in
          DispatchQueue.main.async {
            self.messages.finalResultMessage = "PossessionAuth.authenticate returned error: \(error.localizedDescription)"
            print(self.messages.finalResultMessage)
          }
        }
    }
}

// MARK: - The snippets at work

@Suite(.serialized) struct SeedSnippetTests {
    /// The seed's "Setup Authenticator" snippets, as written.
    @Test func theSeedsBuilderCallsCompileAndBuild() {
        // Object implementing ProveAuthFinishStep protocols
        let finishStep = FinishAuthStep()

        // Objects implementing OtpStartStep/OtpFinishStep protocols
        let otpStartStep = MobileOtpStartStep()
        let otpFinishStep = MobileOtpFinishStep()

        let proveAuthSdk: PossessionAuth
        proveAuthSdk = PossessionAuth.builder(authFinish: finishStep)
          .withOtpFallback(otpStart: otpStartStep, otpFinish: otpFinishStep)
          .build()
        #expect(!proveAuthSdk.isTestMode)

        let testModeSdk: PossessionAuth
        testModeSdk = PossessionAuth.builder(authFinish: finishStep)
          .withMobileAuthTestMode() // Test mode flag
          .build()
        #expect(testModeSdk.isTestMode)
    }

    static func sdk(_ gatehouse: FakeGatehouse, _ finish: FinishAuthStep, _ start: MobileOtpStartStep, _ otp: MobileOtpFinishStep) -> PossessionAuth {
        PossessionAuth.builder(authFinish: finish)
            .withOtpFallback(otpStart: start, otpFinish: otp)
            .withTransport(gatehouse).withCarrierCheck(ScriptedCarrierCheck(.noCellular))
            .build()
    }

    /// The seed's steps through a refused number and a wrong code, answered from the main queue as its views would.
    @Test func theSeedsStepsCarryAnOtpFlowToAuthFinish() async {
        let gatehouse = FakeGatehouse([
            "begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.otpStart(phoneNumberNeeded: true))],
            "otp/start": [Wire.error(400, 1009, "phone number invalid"), Wire.step(Wire.otpFinish)],
            "otp/finish": [Wire.error(400, 1006, "otp invalid"), Wire.step(Wire.done)],
        ])
        let sheet = SheetObservable()
        let start = MobileOtpStartStep(sheetObservable: sheet)
        let otp = MobileOtpFinishStep(sheetObservable: sheet)
        let finish = FinishAuthStep()
        let model = ContentModel(proveAuthSdk: Self.sdk(gatehouse, finish, start, otp))
        let printsBefore = seedPrinted.count("print")
        model.start(authToken: authToken())

        #expect(await sheet.events.wait("otpStart"))
        #expect(await MainActor.run { sheet.isPhoneNumberNeeded && !sheet.isPhoneValidationError })
        await MainActor.run { start.handlePhoneNumber(phoneNumber: "+1202555") }
        #expect(await sheet.events.wait("phoneValidationError"))
        await MainActor.run { start.handlePhoneNumber(phoneNumber: "+12025550123") }
        #expect(await sheet.events.wait("otpFinish"))
        await MainActor.run { otp.handleOtp("1111") }
        #expect(await sheet.events.wait("otpFinish", 2))
        await MainActor.run { otp.handleOtp("1234") }
        #expect(await finish.events.wait("authFinish"))

        #expect(finish.authId == "auth-1")
        #expect(gatehouse.calls("otp/start").map(\.body) == [json(#"{"phoneNumber":"+1202555"}"#), json(#"{"phoneNumber":"+12025550123"}"#)])
        #expect(gatehouse.calls("otp/finish").map(\.body) == [json(#"{"otp":"1111"}"#), json(#"{"otp":"1234"}"#)])
        // The only print was OtpFinish's "found otpError"; the completion never ran.
        #expect(seedPrinted.count("print") == printsBefore + 1)
        #expect(seedPrints.all.last?.hasPrefix("found otpError: ") == true)
        #expect(await MainActor.run { model.messages.finalResultMessage.isEmpty })
    }

    /// The seed's back button in OtpStart: the completion snippet reports the cancel on the main queue.
    @Test func theSeedsCancelReachesTheCompletionSnippet() async {
        let gatehouse = FakeGatehouse([
            "begin": [Wire.session(Wire.camara)], "carrier-check": [Wire.step(Wire.otpStart(phoneNumberNeeded: false))],
            "cancel": [Wire.step(Wire.failed)],
        ])
        let sheet = SheetObservable()
        let start = MobileOtpStartStep(sheetObservable: sheet)
        let finish = FinishAuthStep()
        let model = ContentModel(proveAuthSdk: Self.sdk(gatehouse, finish, start, MobileOtpFinishStep(sheetObservable: sheet)))
        let printsBefore = seedPrinted.count("print")
        model.start(authToken: authToken())

        #expect(await sheet.events.wait("otpStart"))
        await MainActor.run { start.handleOtpStartError() }
        #expect(await seedPrinted.wait("print", printsBefore + 1))
        let message = await MainActor.run { model.messages.finalResultMessage }
        #expect(message == "PossessionAuth.authenticate returned error: The authentication was cancelled.")
        #expect(gatehouse.operations == ["begin", "carrier-check", "cancel"])
        #expect(finish.authId == nil)
    }
}
