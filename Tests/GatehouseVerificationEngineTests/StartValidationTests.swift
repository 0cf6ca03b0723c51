import Foundation
import Testing

@testable import GatehouseVerificationEngine

/// A destination is blank when nothing but `CharacterSet.whitespaces` is in it, as it was
/// when validation trimmed a copy.
@Suite struct StartValidationTests {
    private func codes(_ destination: String?) -> [VerificationErrorCode] {
        do {
            _ = try ValidStart.validate(StartRequest(destination: destination, deliveryMethod: "sms"))
            return []
        } catch let failure as VerificationFailure {
            return failure.codes
        } catch { return [] }
    }

    @Test func onlyWhitespaceIsBlank() {
        for text in [nil, "", " ", "\t", "  \t ", "\u{00A0}", "\u{3000}", "\u{2009}\u{202F}", "\u{200B}"] {
            #expect(codes(text) == [.destinationBlank], "\(text.map { Array($0.unicodeScalars) } ?? [])")
            #expect(text.map { $0.trimmingCharacters(in: .whitespaces).isEmpty } ?? true)
        }
        for text in ["\n", "\u{FEFF}", " x ", "\u{0}"] {
            #expect(codes(text) == [.destinationInvalid], "\(Array(text.unicodeScalars))")
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty)
        }
        #expect(codes("447400123456") == [])
    }
}
