import Foundation
import GatehouseFormats
import Testing

/// `trimmingWhitespace` is Foundation's trim of `.whitespaces`, whatever is at the ends.
@Suite struct WhitespaceTests {
    @Test func trimsAsFoundationDoes() {
        for text in ["", " ", "a", " a", "a ", "\ta b\t", "\u{00A0}x\u{3000}", "\u{200B}x", "\nx\n", "x\u{0}", "é ", " 😀"] {
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }
}
