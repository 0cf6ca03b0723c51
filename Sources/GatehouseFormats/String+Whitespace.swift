import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, but the string itself when neither end is
    /// whitespace, as on almost every request: Foundation's trim builds a copy through
    /// `NSString` either way.
    public var trimmingWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
            CharacterSet.whitespaces.contains(first) || CharacterSet.whitespaces.contains(last)
        else { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}
