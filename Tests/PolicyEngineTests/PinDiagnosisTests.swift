import Foundation
import PolicyEngine
import TestSupport
import Testing

/// `PinDiagnosis.explain` as rejection messages use it: values naming the encoding, the hash, what was hashed, the
/// certificate's index in the chain given and the right pin; nothing for a pin of another key or for no hash at all.
@Suite("Pin diagnosis")
struct PinDiagnosisTests {
    let chain = ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"].map(Certs.one)

    @Test func aFingerprintInColonHexIsTheCertificatesDER() throws {
        let pin = try PinVector.make(.certificate, .sha256, .colonHex, of: "intermediate-ca.pem")

        let explanations = PinDiagnosis.explain(pin, in: chain)

        #expect(explanations.count == 1)
        let explanation = try #require(explanations.first)
        #expect(explanation.encoding == .colonHex)
        #expect(explanation.algorithm == .sha256)
        #expect(explanation.hashed == .certificate)
        #expect(explanation.certificateIndex == 1)
        #expect(explanation.prefix == nil)
        #expect(!explanation.unpadded)
        #expect(!explanation.isCorrect)
        #expect(explanation.correctPin == Certs.spkiPin(of: "intermediate-ca.pem"))
        #expect(explanation.message == "the SHA-256 of certificate 1's DER (its fingerprint), not of its SPKI, in "
            + "colon-separated hex: use \(Certs.spkiPin(of: "intermediate-ca.pem"))")
    }

    @Test func theIndexIsThePositionInTheChainGiven() throws {
        let pin = try PinVector.make(.rawKey, .sha1, .base64, of: "leaf.pem", prefix: "sha1/")

        #expect(PinDiagnosis.explain(pin, in: chain).map(\.certificateIndex) == [0])
        #expect(PinDiagnosis.explain(pin, in: chain.reversed()).map(\.certificateIndex) == [2])
        #expect(PinDiagnosis.explain(pin, in: Array(chain.dropFirst())).isEmpty)
    }

    @Test func theSPKIPinAsPinctlWritesItIsAlreadyCorrect() throws {
        let explanation = try #require(PinDiagnosis.explain(Certs.spkiPin(of: "root-ca.pem"), in: chain).first)

        #expect(explanation.isCorrect)
        #expect(explanation.hashed == .spki && explanation.algorithm == .sha256 && explanation.certificateIndex == 2)
        #expect(explanation.message == "the SHA-256 of certificate 2's SPKI: already a correct pin")
    }

    @Test func base64WithoutPaddingAndUpperCaseHexAreRead() throws {
        let base64 = try PinVector.make(.spki, .sha256, .base64, of: "leaf.pem", prefix: "sha256/")
        let unpadded = String(base64.dropLast())
        let hex = try PinVector.make(.spki, .sha1, .hex, of: "leaf.pem").uppercased()

        let padding = try #require(PinDiagnosis.explain(unpadded, in: chain).first)
        #expect(padding.unpadded && !padding.isCorrect)
        #expect(padding.message.contains(", in base64 without its = padding: use sha256/"), "\(padding.message)")
        #expect(PinDiagnosis.explain(hex, in: chain).map(\.encoding) == [.hex])
    }

    @Test func anotherKeysPinAndTextThatIsNoHashAreNotExplained() {
        #expect(PinDiagnosis.explain(Certs.spkiPin(of: "other-leaf.pem"), in: chain).isEmpty)
        #expect(PinDiagnosis.explain("sha256/not base64", in: chain).isEmpty)
        #expect(PinDiagnosis.explain("", in: chain).isEmpty)
        #expect(PinDiagnosis.explain(Certs.spkiPin(of: "leaf.pem"), in: []).isEmpty)
    }

    @Test func syntaxErrorsNameWhatTheTextDecodesTo() {
        #expect(PinDiagnosis.syntaxError(Certs.spkiPin(of: "leaf.pem")) == nil)
        #expect(PinDiagnosis.syntaxError("pin-sha256=\"" + Certs.spkiPin(of: "leaf.pem").dropFirst(7) + "\"") == nil)
        #expect(PinDiagnosis.syntaxError("  ") == "an empty pin")
        #expect(PinDiagnosis.syntaxError("00:11:22:33")?.hasSuffix("it decodes to 4 bytes in colon-hex") == true)
        #expect(PinDiagnosis.syntaxError("sha256/%%%")?.hasSuffix("it reads as none of them") == true)
    }
}
