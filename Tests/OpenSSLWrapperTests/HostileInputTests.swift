import Foundation
import OpenSSLWrapper
import Testing
import TestSupport

/// Untrusted bytes never trap: mutated and truncated certificates either parse or throw.
@Suite struct HostileInputTests {
    /// A fixed-seed generator, so a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = ["leaf.der", "leaf-fullchain.pem", "leaf-rsa.pem", "root-ca.der"]

    @Test("mutated input parses or throws, never crashes", arguments: seeds)
    func mutatedInputParsesOrThrows(_ name: String) throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Certs.path(name))))
        var random = SplitMix(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        var rejected = 0
        for _ in 0..<1_500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.removeSubrange(index...)
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
                if bytes.isEmpty { break }
            }
            do {
                let certificates = try CertificateParser.certificates(from: bytes)
                #expect(!certificates.isEmpty)
            } catch {
                #expect(!error.description.isEmpty)
                rejected += 1
            }
        }
        #expect(rejected > 0, "mutations of \(name) should not all parse")
    }

    @Test func everyTruncationOfADERCertificateIsRejected() {
        let der = Certs.one("leaf.pem").derBytes
        for length in 0..<der.count {
            #expect(throws: CertificateParseError.self) { try CertificateParser.certificates(from: Array(der[..<length])) }
        }
    }
}
