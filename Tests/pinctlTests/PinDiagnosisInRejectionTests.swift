import Foundation
import Testing
import TestSupport

/// DESIGN §10: a `public-key-not-pinned` rejection says what a configured pin that matches no key is instead. The
/// wrong pins are made by the openssl CLI (`PinVector`), in certs/libraries/ with root-ca.pem as the store.
@Suite struct PinDiagnosisInRejectionTests {
    static let anchors = ["--ca-file", "root-ca.pem", "--at", TestTime.nowText]

    func verify(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--host", "api.example.com"] + arguments
            + Self.anchors, in: LibraryCerts.directory)
    }

    @Test func aLeafFingerprintPinnedAsAKeyIsNamedUnderThePinWithTheRightPin() throws {
        let fingerprint = try PinVector.make(.certificate, .sha256, .base64, of: "leaf.pem", prefix: "sha256/",
                                             in: LibraryCerts.directory)
        try TemporaryDirectory.with { directory in
            let pins = try directory.write("browser.pin", text: "# copied from the browser\n\(fingerprint)\n")
            let result = try verify(["--mode", "publickey", "--pins", pins])
            #expect(result.status == 1, "\(result)")
            let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let pinned = try #require(lines.firstIndex(of: "\(fingerprint) (\(pins):2)"), "\(result)")
            #expect(lines[pinned + 1] == "which is the SHA-256 of certificate 0's DER (its fingerprint), not of its "
                + "SPKI: use \(LibraryCerts.pin(of: "leaf.pem"))", "\(result)")
        }
    }

    @Test func anIntermediatesRawKeyHashInOkHttpFollowsOkHttpsOwnLines() throws {
        let rawKey = try PinVector.make(.rawKey, .sha256, .base64, of: "intermediate-ca.pem", prefix: "sha256/",
                                        in: LibraryCerts.directory)
        let result = try verify(["--library", "okhttp", "--pin", rawKey, "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let message = try #require((try LiveRun.object(result.stdout)["reason"] as? [String: Any])?["message"]
            as? String)
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.suffix(3) == [
            "Pinned certificates for api.example.com:",
            "\(rawKey)",
            "\(rawKey) is the SHA-256 of certificate 1's raw key (the uncompressed EC point iOS's "
                + "SecKeyCopyExternalRepresentation returns), not of its SPKI: use "
                + LibraryCerts.pin(of: "intermediate-ca.pem"),
        ], "\(message)")
    }

    @Test func aPinOfAnotherKeyGetsNoDiagnosis() throws {
        let result = try verify(["--mode", "publickey", "--pins", "leaf-rekeyed.pem"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("public key not pinned"), "\(result)")
        #expect(!result.stdout.contains("which is"), "\(result)")
    }
}
