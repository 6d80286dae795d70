import Foundation
import OpenSSLWrapper
import Testing
import TestSupport

/// End-to-end: `pinctl chain` (text, JSON, PEM; live and from files) and `pinctl extract` (which files, never
/// overwriting, where it writes, and what it refuses).
@Suite struct ChainAndExtractTests {
    let expectedChain = ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"].map(Certs.one)

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    // MARK: chain

    @Test func chainTextMarksWhatTheServerSentAndWhatTheStoreAdded() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["chain", "127.0.0.1:\(server.port)"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        let out = result.stdout
        #expect(out.hasPrefix("127.0.0.1:\(server.port)  (TLSv1."), "\(result)")
        #expect(out.contains("#0 CN=pinning.test  [presented]"), "\(result)")
        #expect(out.contains("#1 CN=pinctl Test Intermediate CA,O=pinctl Test  [presented]"), "\(result)")
        #expect(out.contains("#2 CN=pinctl Test Root CA,O=pinctl Test  [from the trust store]"), "\(result)")
        #expect(!out.contains("#3 "))
        #expect(out.contains("issuer   CN=pinctl Test Intermediate CA,O=pinctl Test"))
        #expect(out.contains("serial   \(expectedChain[0].serialNumber)"))
        #expect(out.contains("2025-01-01T00:00:00Z → 2125-01-01T00:00:00Z (36008 days left)"), "\(result)")
        #expect(out.contains("names    DNS:pinning.test, DNS:localhost, IP:127.0.0.1, IP:::1"), "\(result)")
        #expect(out.contains("names    (no subject alternative names)"))
        #expect(out.contains("key      ECDSA P-256, signed with ecdsa-with-SHA256"), "\(result)")
        for (certificate, file) in zip(expectedChain, ["leaf.pem", "intermediate-ca.pem", "root-ca.pem"]) {
            #expect(out.contains("sha256   \(hex(certificate.sha256Fingerprint))"), "\(file)")
            #expect(out.contains("pin      \(LiveRun.pin(of: file))"), "\(file)")
        }
        #expect(out.contains("verifies against the CA file root-ca.pem"), "\(result)")
    }

    @Test func chainJSONFlagsPresentedCertificatesAndSaysTheChainVerifies() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["chain", "localhost:\(server.port)", "--format", "json"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["target"] as? String == "localhost:\(server.port)")
        #expect(object["verdict"] as? String == "trusted")
        #expect(object["reason"] == nil)
        // The anchors alone judged it: no library, policy or pin is claimed (it was AFNetworking's mode none).
        #expect((object["trust"] as? [String: Any])?["basis"] as? String == "validated")
        #expect(object["library"] == nil && object["policy"] == nil, "\(object)")
        #expect(((object["tls"] as? [String: Any])?["version"] as? String)?.hasPrefix("TLSv1.") == true)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["presented"] as? Bool } == [true, true, false])
        #expect(chain.map { $0["sha256"] as? String } == expectedChain.map { hex($0.sha256Fingerprint) })
        #expect(chain.map { $0["subject"] as? String } == expectedChain.map(\.subject))
    }

    @Test func chainJSONOfAnIncompleteChainSaysItDoesNotVerify() throws {
        let server = try LiveRun.leafOnlyServer()
        defer { server.stop() }

        let result = try PinctlProcess.run(["chain", "127.0.0.1:\(server.port)", "--format", "json"] + LiveRun.anchors)

        #expect(result.status == 0, "chain dumps what it got: \(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["verdict"] as? String == "rejected")
        let reason = try #require(object["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "untrusted-chain")
        #expect((reason["message"] as? String)?.contains("OpenSSL error 20") == true, "unable to get local issuer certificate")
        #expect((object["chain"] as? [[String: Any]])?.count == 1)
    }

    @Test func chainPEMParsesBackIntoTheSameCertificates() throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["chain", "127.0.0.1:\(server.port)", "--format", "pem"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(result.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1 == 3)
        let parsed = try CertificateParser.certificates(from: Array(result.stdout.utf8))
        #expect(parsed == expectedChain)
    }

    @Test func chainOfFilesWorksOfflineAndSaysWhereEachCertificateCameFrom() throws {
        let result = try PinctlProcess.run(["chain", "--chain", "leaf-chain.pem"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("leaf-chain.pem\n"), "no TLS line offline: \(result)")
        #expect(result.stdout.contains("#0 CN=pinning.test  [presented]"), "\(result)")
        #expect(result.stdout.contains("#1 CN=pinctl Test Intermediate CA,O=pinctl Test  [presented]"))
        #expect(result.stdout.contains("#2 CN=pinctl Test Root CA,O=pinctl Test  [from the trust store]"))
        #expect(!result.stdout.contains("sent by the server"))
    }

    @Test func chainWithBothATargetAndFilesIsAUsageError() throws {
        let result = try PinctlProcess.run(["chain", "127.0.0.1:1", "--chain", "leaf-chain.pem"] + LiveRun.anchors)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("not both"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["chain", "extract"])
    func badTargetSyntaxIsAUsageErrorNamingIt(_ command: String) throws {
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let result = try PinctlProcess.run([command, "host:99999"] + (command == "extract" ? ["--out", out] : [])
                + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("target host:99999: port '99999'"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    // MARK: extract

    struct Selection: Sendable, CustomTestStringConvertible {
        let which: String
        /// The files written besides pins.pin, and the fixture each must equal.
        let files: [String: String]
        var testDescription: String { which }
    }

    static let selections = [
        Selection(which: "leaf", files: ["00-pinning.test.cer": "leaf.der"]),
        Selection(which: "intermediates", files: ["00-pinctl-test-intermediate-ca.cer": "intermediate-ca.der"]),
        Selection(which: "root", files: ["00-pinctl-test-root-ca.cer": "root-ca.der"]),
        Selection(which: "all", files: ["00-pinning.test.cer": "leaf.der",
                                        "01-pinctl-test-intermediate-ca.cer": "intermediate-ca.der",
                                        "02-pinctl-test-root-ca.cer": "root-ca.der"]),
    ]

    @Test(arguments: selections)
    func extractWritesExactlyTheChosenCertificates(_ selection: Selection) throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let result = try PinctlProcess.run(["extract", "127.0.0.1:\(server.port)", "--out", out,
                                                "--which", selection.which] + LiveRun.anchors)

            #expect(result.status == 0, "\(result)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == (Array(selection.files.keys) + ["pins.pin"]).sorted())
            for (name, fixture) in selection.files {
                let written = FileManager.default.contents(atPath: out + "/" + name).map { [UInt8]($0) }
                #expect(written == Certs.bytes(fixture), "\(name)")
            }
            let pins = try String(contentsOfFile: out + "/pins.pin", encoding: .utf8)
            #expect(LiveRun.lines(pins).filter { $0.hasPrefix("sha256/") }.count == selection.files.count)
            #expect(LiveRun.lines(result.stdout).count == selection.files.count + 1, "one line per file written")
        }
    }

    @Test func extractNeverOverwritesWithoutForce() throws {
        try TemporaryDirectory.with { temporary in
            let out = try temporary.makeDirectory("pins")
            let old = try temporary.write("pins/00-pinning.test.cer", text: "an older pin")
            let oldPins = try temporary.write("pins/pins.pin", text: "sha256/older\n")
            let arguments = ["extract", "--chain", "leaf-chain.pem", "--out", out] + LiveRun.anchors

            let refused = try PinctlProcess.run(arguments)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("00-pinning.test.cer"), "\(refused)")
            #expect(refused.stderr.contains("--force"), "\(refused)")
            #expect(try String(contentsOfFile: old, encoding: .utf8) == "an older pin")
            #expect(try String(contentsOfFile: oldPins, encoding: .utf8) == "sha256/older\n")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == ["00-pinning.test.cer", "pins.pin"], "nothing new was written either")

            let forced = try PinctlProcess.run(arguments + ["--force"])
            #expect(forced.status == 0, "\(forced)")
            #expect(FileManager.default.contents(atPath: old).map { [UInt8]($0) } == Certs.bytes("leaf.der"))
            #expect(try String(contentsOfFile: oldPins, encoding: .utf8).contains(LiveRun.pin(of: "leaf.pem")))
        }
    }

    @Test func extractCreatesNestedOutputDirectories() throws {
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("a/b/c")
            let result = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", out] + LiveRun.anchors)

            #expect(result.status == 0, "\(result)")
            #expect(FileManager.default.contents(atPath: out + "/00-pinning.test.cer").map { [UInt8]($0) }
                == Certs.bytes("leaf.der"))
        }
    }

    @Test func extractIntoARegularFileIsAnInputError() throws {
        try TemporaryDirectory.with { temporary in
            let file = try temporary.write("pins", text: "not a directory")
            let result = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", file]
                + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--out \(file): exists and is not a directory"), "\(result)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a directory")
        }
    }

    @Test func extractFromARefusedPortExitsThreeAndWritesNothing() throws {
        let port = try HostilePeer.refusedPort()
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let result = try PinctlProcess.run(["extract", "127.0.0.1:\(port)", "--out", out, "--timeout", "2"]
                + LiveRun.anchors)

            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("connection refused by 127.0.0.1:\(port)"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func extractRootOfAChainThatReachesNoAnchorIsAnInputError() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("other-leaf-chain.pem"),
                                       keyPath: Certs.path("other-leaf.key"))
        defer { server.stop() }
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let result = try PinctlProcess.run(["extract", "127.0.0.1:\(server.port)", "--out", out, "--which", "root"]
                + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("no root"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
