import Testing
import GatehouseFormats

/// RFC 9110 §5.6.2 `tchar`, and field names compared without ASCII case (§5.1).
struct HTTPTokenTests {
    @Test func tokenBytesAreTheRFCsAndNoOthers() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPToken.isTokenByte(byte) == tchars.contains(byte), "\(byte)")
        }
        #expect(HTTPToken.isToken("X-Request-ID") && !HTTPToken.isToken("") && !HTTPToken.isToken("Host ") && !HTTPToken.isToken("a:b"))
    }

    @Test func namesMatchWithoutASCIICaseOnly() {
        #expect(HTTPToken.namesMatch("Content-Type", "content-type"))
        #expect(HTTPToken.namesMatch("X-API-KEY", "x-api-key"))
        #expect(!HTTPToken.namesMatch("Content-Type", "Content-Typ"))
        #expect(!HTTPToken.namesMatch("Content-Type", "Content-Types"))
        // Only letters fold: `@` and `` ` `` differ by the same bit as `A` and `a`, and so do `[` and `{`.
        #expect(!HTTPToken.namesMatch("a@", "a`") && !HTTPToken.namesMatch("[", "{"))
        // Nothing outside ASCII folds: the Kelvin sign is not `k`, `É` is not `é`.
        #expect(!HTTPToken.namesMatch("\u{212A}", "k") && !HTTPToken.namesMatch("É", "é"))
    }
}
