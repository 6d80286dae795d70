import Foundation
import Testing
import TestSupport

/// DESIGN §1's question end to end: pins extracted from today's server, checked against the chain it serves after a
/// rotation. A renewal keeps the key, a re-key does not, another PKI shares nothing, a lost intermediate breaks trust.
@Suite struct RotationTests {
    /// A server with leaf + intermediate, and `pinctl extract`'s files from it (leaf, intermediate, store root).
    struct Extracted {
        let server: TLSTestServer
        let directory: String

        var target: String { "127.0.0.1:\(server.port)" }

        /// The one extracted file whose name starts with `prefix` ("00-", "01-", "02-").
        func file(_ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(prefix) }
            try #require(names.count == 1, "\(prefix)* in \(directory): \(names)", sourceLocation: sourceLocation)
            return directory + "/" + names[0]
        }

        /// `pinctl check` of the server with `arguments`, as JSON; the anchors are the main root unless given.
        func check(
            _ arguments: [String], anchors: [String] = LiveRun.anchors
        ) throws -> (PinctlProcess.Result, [String: Any]) {
            let result = try PinctlProcess.run(["check", target, "--servername", "pinning.test", "--format", "json"]
                + arguments + anchors)
            return (result, try LiveRun.object(result.stdout))
        }

        /// Rotates the server to `chain` (files in certs/) with `key`.
        func rotate(to chain: [String], key: String) throws {
            try server.serve(chainPEM: chain.map(Certs.path), keyPath: Certs.path(key))
        }
    }

    /// Starts the server, extracts its pins into a temporary directory, runs `body`, stops the server.
    func withExtractedPins(_ body: (Extracted) throws -> Void) throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        try TemporaryDirectory.with { temporary in
            let directory = temporary.path("pins")
            let result = try PinctlProcess.run(["extract", "127.0.0.1:\(server.port)", "--out", directory]
                + LiveRun.anchors)
            try #require(result.status == 0, "\(result)")
            try body(Extracted(server: server, directory: directory))
        }
    }

    @Test func extractWritesTheServedCertificatesByteForByteAndTheirPins() throws {
        try withExtractedPins { extracted in
            let names = try FileManager.default.contentsOfDirectory(atPath: extracted.directory).sorted()
            #expect(names == ["00-pinning.test.cer", "01-pinctl-test-intermediate-ca.cer", "02-pinctl-test-root-ca.cer",
                              "pins.pin"])
            for (prefix, der) in [("00-", "leaf.der"), ("01-", "intermediate-ca.der"), ("02-", "root-ca.der")] {
                let written = FileManager.default.contents(atPath: try extracted.file(prefix)).map { [UInt8]($0) }
                #expect(written == Certs.bytes(der), "\(prefix)* is \(der)")
            }
            let pins = try String(contentsOfFile: extracted.directory + "/pins.pin", encoding: .utf8)
            let lines = LiveRun.lines(pins).filter { !$0.hasPrefix("#") }
            #expect(lines == [
                "\(LiveRun.pin(of: "leaf.pem"))  # CN=pinning.test",
                "\(LiveRun.pin(of: "intermediate-ca.pem"))  # CN=pinctl Test Intermediate CA,O=pinctl Test",
                "\(LiveRun.pin(of: "root-ca.pem"))  # CN=pinctl Test Root CA,O=pinctl Test",
            ])
        }
    }

    @Test(arguments: ["certificate", "publickey"])
    func extractedDirectoryIsAcceptedByPinsAsIs(_ mode: String) throws {
        try withExtractedPins { extracted in
            let (result, object) = try extracted.check(["--mode", mode, "--pins", extracted.directory])
            #expect(result.status == 0, "\(result)")
            #expect((object["policy"] as? [String: Any])?["pins"] as? Int == (mode == "certificate" ? 3 : 6))
            let matched = try #require(object["matchedPin"] as? [String: Any])
            #expect((matched["source"] as? String)?.hasPrefix(extracted.directory) == true, "\(matched)")
        }
    }

    @Test func renewedLeafKeepsItsPublicKeyPinButNotItsCertificatePin() throws {
        try withExtractedPins { extracted in
            let leaf = try extracted.file("00-")
            let leafPin = LiveRun.pin(of: "leaf.pem")
            try extracted.rotate(to: ["leaf-renewed.pem", "intermediate-ca.pem"], key: "leaf.key")

            let byFile = try extracted.check(["--mode", "publickey", "--pins", leaf])
            #expect(byFile.0.status == 0, "\(byFile.0)")
            let byHash = try extracted.check(["--mode", "publickey", "--pin", leafPin])
            #expect(byHash.0.status == 0, "\(byHash.0)")
            let (certificate, object) = try extracted.check(["--mode", "certificate", "--pins", leaf])
            #expect(certificate.status == 1, "\(certificate)")
            #expect(object["verdict"] as? String == "rejected")
            // The renewed leaf really is what was served: same key, another certificate.
            let chain = try #require(object["chain"] as? [[String: Any]])
            #expect(chain.first?["spki"] as? String == leafPin)
            #expect(chain.first?["serial"] as? String == Certs.one("leaf-renewed.pem").serialNumber)
        }
    }

    @Test func rekeyedLeafFailsLeafPinsInBothModesButPassesOnTheIntermediateOrRoot() throws {
        try withExtractedPins { extracted in
            let leaf = try extracted.file("00-")
            try extracted.rotate(to: ["leaf-rekeyed.pem", "intermediate-ca.pem"], key: "leaf-rekeyed.key")

            let (publicKey, publicKeyObject) = try extracted.check(["--mode", "publickey", "--pins", leaf])
            #expect(publicKey.status == 1, "\(publicKey)")
            #expect(LiveRun.reasonCode(publicKeyObject) == "public-key-not-pinned")
            let (certificate, _) = try extracted.check(["--mode", "certificate", "--pins", leaf])
            #expect(certificate.status == 1, "\(certificate)")

            for backup in [try extracted.file("01-"), try extracted.file("02-")] {
                for mode in ["publickey", "certificate"] {
                    let (result, _) = try extracted.check(["--mode", mode, "--pins", backup])
                    #expect(result.status == 0, "\(mode) pinned to \(backup): \(result)")
                }
            }
        }
    }

    @Test func chainOfAnotherPKIFailsThePinsOfTheFirstThoughTheStoreTrustsIt() throws {
        try withExtractedPins { extracted in
            try extracted.rotate(to: ["other-leaf.pem", "other-intermediate-ca.pem"], key: "other-leaf.key")
            let bothRoots = ["--ca-file", "root-ca.pem", "--ca-file", "other-root-ca.pem", "--at", TestTime.nowText]

            let (gate, _) = try extracted.check(["--mode", "none"], anchors: bothRoots)
            #expect(gate.status == 0, "the default trust gate passes: \(gate)")
            let (publicKey, publicKeyObject) = try extracted.check(
                ["--mode", "publickey", "--pins", extracted.directory], anchors: bothRoots)
            #expect(publicKey.status == 1, "\(publicKey)")
            #expect(LiveRun.reasonCode(publicKeyObject) == "public-key-not-pinned")
            let (certificate, certificateObject) = try extracted.check(
                ["--mode", "certificate", "--pins", extracted.directory], anchors: bothRoots)
            #expect(certificate.status == 1, "\(certificate)")
            #expect(certificateObject["verdict"] as? String == "rejected")
        }
    }

    @Test(arguments: ["none", "certificate", "publickey"])
    func missingIntermediateFailsTheDefaultTrustGateInEveryMode(_ mode: String) throws {
        try withExtractedPins { extracted in
            try extracted.rotate(to: ["leaf.pem"], key: "leaf.key")
            let pins = mode == "none" ? [] : ["--pins", extracted.directory]

            let (result, object) = try extracted.check(["--mode", mode] + pins)

            #expect(result.status == 1, "\(result)")
            #expect(object["verdict"] as? String == "rejected")
            #expect(LiveRun.reasonCode(object) == "untrusted-chain", "\(result)")
            #expect((object["chain"] as? [[String: Any]])?.count == 1, "only the leaf was served")
        }
    }
}
