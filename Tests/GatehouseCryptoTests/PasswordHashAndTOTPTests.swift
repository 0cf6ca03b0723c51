import Foundation
import Testing
@testable import GatehouseCrypto

/// The console's two factors: scrypt password hashes (RFC 7914's own vectors) and TOTP codes
/// (RFC 6238 Appendix B), with Base32 by RFC 4648's vectors.
@Suite struct PasswordHashAndTOTPTests {
    @Test func scryptMatchesRFC7914() {
        let derived = PasswordHash.derive("password", salt: Array("NaCl".utf8), cost: .init(logN: 10, r: 8, p: 16), length: 64)
        #expect(derived.hexString == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test func aHashVerifiesItsPasswordOnly() {
        let cost = PasswordHash.Cost(logN: 10, r: 8, p: 1)
        let encoded = PasswordHash.make("correct horse battery staple", cost: cost, random: SystemRandom())
        #expect(encoded.hasPrefix("$scrypt$ln=10,r=8,p=1$") && !encoded.split(separator: "$").suffix(2).joined().contains("="))
        #expect(PasswordHash.verify("correct horse battery staple", against: encoded))
        #expect(!PasswordHash.verify("correct horse battery stapl", against: encoded))
        #expect(!PasswordHash.verify("", against: encoded))
        // Two hashes of one password differ by their salt.
        #expect(encoded != PasswordHash.make("correct horse battery staple", cost: cost, random: SystemRandom()))
        #expect(PasswordHash.needsRehash(encoded) && !PasswordHash.needsRehash(encoded, cost: cost))
        // Not a hash, or one asking for a cost out of range (a stored string cannot exhaust memory): false, never a crash.
        let parts = encoded.split(separator: "$").map(String.init)
        for bad in ["", "$scrypt$", "plain", "$scrypt$ln=30,r=8,p=1$\(parts[2])$\(parts[3])", "$scrypt$ln=10,r=8,p=99$\(parts[2])$\(parts[3])",
                    "$scrypt$ln=20,r=16,p=4$\(parts[2])$\(parts[3])", "$scrypt$ln=18,r=8,p=1$\(parts[2])$\(parts[3])",
                    "$scrypt$ln=10,r=8$\(parts[2])$\(parts[3])", "$scrypt$ln=10,r=8,p=1$!!$\(parts[3])", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"] {
            #expect(!PasswordHash.verify("correct horse battery staple", against: bad), "\(bad)")
        }
    }

    @Test(arguments: [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ] as [(Int64, String)])
    func totpMatchesRFC6238(_ time: Int64, _ expected: String) {
        let totp = TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        #expect(totp.code(at: Date(timeIntervalSince1970: TimeInterval(time))) == expected)
    }

    @Test func aCodeIsTakenWithinOneStepOfDrift() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = totp.step(at: now)
        #expect(totp.matchingStep(totp.code(at: now), at: now) == step)
        #expect(totp.matchingStep(totp.code(step: step - 1), at: now) == step - 1)
        #expect(totp.matchingStep(totp.code(step: step + 1), at: now) == step + 1)
        #expect(totp.matchingStep(totp.code(step: step - 2), at: now) == nil)
        for bad in ["", "12345", "1234567", "12345a", "١٢٣٤٥٦"] { #expect(totp.matchingStep(bad, at: now) == nil) }
        #expect(totp.code(at: now).count == 6)
    }

    @Test func provisioningURIAndBase32() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI======")
        #expect(Base32.encode(Array("fooba".utf8)) == "MZXW6YTB")
        #expect(Base32.encode(Array("f".utf8)) == "MY======")
        #expect(Base32.decode("mzxw6ytboi") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW6YTB0") == nil)
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        #expect(totp.provisioningURI(account: "ops@example.com", issuer: "Gatehouse Console")
            == "otpauth://totp/Gatehouse%20Console:ops%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Gatehouse%20Console&algorithm=SHA1&digits=6&period=30")
    }
}
