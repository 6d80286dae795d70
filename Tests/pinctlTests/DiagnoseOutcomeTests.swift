import Foundation
import Testing
import TestSupport

/// `pinctl diagnose` beyond the matrix of hash kinds: prefixes, RSA and compressed EC keys, live targets, and the exit
/// codes of a pin that is nothing (1), bad input (2) and a failed connection (3).
@Suite struct DiagnoseOutcomeTests {
    let chain = DiagnoseCommandTests.chain

    struct Prefixed: Sendable, CustomTestStringConvertible {
        let prefix: String
        let hashed: PinVector.Hashed
        let digest: PinVector.Digest
        let correct: Bool
        /// What the message must say about the prefix.
        let says: String
        var testDescription: String { "\(prefix)\(digest.rawValue) of \(hashed.rawValue)" }
    }

    static let prefixed = [
        Prefixed(prefix: "sha256/", hashed: .spki, digest: .sha256, correct: true, says: ": already a correct pin"),
        Prefixed(prefix: "sha1/", hashed: .spki, digest: .sha1, correct: false, says: "SPKI: use sha256/"),
        Prefixed(prefix: "sha256/", hashed: .spki, digest: .sha1, correct: false, says: ", written with sha256/"),
        Prefixed(prefix: "sha1/", hashed: .certificate, digest: .sha256, correct: false, says: ", written with sha1/"),
        Prefixed(prefix: "sha256/", hashed: .rawKey, digest: .sha256, correct: false, says: "not of its SPKI: use"),
    ]

    @Test(arguments: prefixed)
    func aPrefixIsReadAndNamedWhenItContradictsTheHash(_ test: Prefixed) throws {
        let pin = try PinVector.make(test.hashed, test.digest, .base64, of: "leaf.pem", prefix: test.prefix)

        let result = try PinctlProcess.run(["diagnose", pin, "--format", "json"] + chain)

        #expect(result.status == 0, "\(result)")
        let match = try #require((try LiveRun.object(result.stdout)["matches"] as? [[String: Any]])?.first)
        #expect(match["prefix"] as? String == test.prefix)
        #expect(match["hash"] as? String == test.digest.rawValue)
        #expect(match["hashed"] as? String == test.hashed.rawValue)
        #expect(match["correct"] as? Bool == test.correct)
        #expect((match["message"] as? String)?.contains(test.says) == true, "\(match)")
    }

    @Test(arguments: [("other-leaf.pem", 0), ("other-intermediate-ca.pem", 1), ("other-root-ca.pem", 2)])
    func theRawKeyOfAnRSACertificateIsItsPKCS1RSAPublicKey(_ file: String, _ index: Int) throws {
        let sha256 = try PinVector.make(.rawKey, .sha256, .base64, of: file, prefix: "sha256/")
        let sha1 = try PinVector.make(.rawKey, .sha1, .hex, of: file)

        let result = try PinctlProcess.run(["diagnose", sha256, sha1, "--chain", "other-leaf-chain.pem",
                                            "--ca-file", "other-root-ca.pem", "--at", TestTime.nowText])

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("the SHA-256 of certificate \(index)'s raw key (the PKCS#1 RSAPublicKey"),
                "\(result)")
        #expect(result.stdout.contains("the SHA-1 of certificate \(index)'s raw key (the PKCS#1 RSAPublicKey iOS's "
            + "SecKeyCopyExternalRepresentation returns), not of its SPKI, in hex: use \(Certs.spkiPin(of: file))"))
    }

    @Test func theRawKeyOfACompressedECPointIsTheUncompressedPoint() throws {
        try TemporaryDirectory.with { directory in
            for command in [["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec.pem"],
                            ["ec", "-in", "ec.pem", "-conv_form", "compressed", "-out", "key.pem"],
                            ["req", "-x509", "-key", "key.pem", "-subj", "/CN=compressed.test", "-days", "10",
                             "-out", "cert.pem"]] {
                try OpenSSLCLI.run(command, in: directory.path)
            }
            let spki = try ShellPipeline.output("openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin "
                + "-outform der | xxd -p -c 256", in: directory.path)
            try #require(spki.hasPrefix("3039"), "a compressed point: 57 bytes of SPKI, not 91")
            // What iOS hashes: the point uncompressed, as `openssl ec -conv_form uncompressed` writes it.
            let uncompressed = try PinVector.make(.rawKey, .sha256, .base64, of: "cert.pem", in: directory.path)
            let asStored = try ShellPipeline.output("openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin "
                + "-outform der | tail -c 33 | openssl dgst -sha256 -binary | base64 -w0", in: directory.path)

            let result = try PinctlProcess.run(["diagnose", uncompressed, asStored, "--chain", "cert.pem",
                                                "--ca-file", "cert.pem", "--at", OpenSSLCLI.validTime,
                                                "--format", "json"], in: directory.path)

            #expect(result.status == 1, "the compressed point is not what iOS hashes: \(result)")
            let objects = try LiveRun.objects(result.stdout)
            #expect(objects.map { $0["explained"] as? Bool } == [true, false])
            let match = try #require((objects.first?["matches"] as? [[String: Any]])?.first)
            #expect(match["hashed"] as? String == "raw-key")
        }
    }

    @Test func aPinOfAnotherKeyMatchesNothingAndTheChainsPinsAreListed() throws {
        let other = Certs.spkiPin(of: "other-leaf.pem")
        let explained = try PinVector.make(.certificate, .sha1, .hex, of: "leaf.pem")

        let result = try PinctlProcess.run(["diagnose", explained, other] + chain)

        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("\(other)\n  matches nothing: not the SHA-256 or SHA-1 of the SPKI, the DER or "
            + "the raw key of any certificate of leaf-chain.pem below, in any encoding\n"), "\(result)")
        #expect(result.stdout.contains("""
            The key pins of leaf-chain.pem:
              #0 \(Certs.spkiPin(of: "leaf.pem"))  CN=pinning.test [presented]
              #1 \(Certs.spkiPin(of: "intermediate-ca.pem"))  CN=pinctl Test Intermediate CA,O=pinctl Test [presented]
              #2 \(Certs.spkiPin(of: "root-ca.pem"))  CN=pinctl Test Root CA,O=pinctl Test [from the trust store]
            """), "\(result)")
    }

    @Test func jsonOfAPinThatIsNothingSaysSoAndListsTheChain() throws {
        let result = try PinctlProcess.run(["diagnose", Certs.spkiPin(of: "other-leaf.pem"), "--format", "json"]
            + chain)

        #expect(result.status == 1, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["target"] as? String == "leaf-chain.pem")
        #expect(object["explained"] as? Bool == false)
        #expect((object["matches"] as? [Any])?.isEmpty == true)
        let listed = try #require(object["chain"] as? [[String: Any]])
        #expect(listed.map { $0["spki"] as? String } == DiagnoseCommandTests.files.map { Certs.spkiPin(of: $0) })
        #expect(listed.map { $0["presented"] as? Bool } == [true, true, false])
    }

    @Test(arguments: [
        (["diagnose", "hello", "--chain", "leaf-chain.pem"], "pin 'hello': not a SHA-256 (32 bytes) or SHA-1"),
        // An MD5 fingerprint: hex, but 16 bytes.
        (["diagnose", "0123456789abcdef0123456789abcdef", "--chain", "leaf-chain.pem"], "decodes to 16 bytes in hex"),
        (["diagnose", "--chain", "leaf-chain.pem"], "give at least one pin"),
        (["diagnose", "localhost:1"], "give the pins and then a target"),
        (["diagnose", Certs.spkiPin(of: "leaf.pem"), String(repeating: "5f", count: 20)], "is a pin, not a target"),
        (["diagnose", Certs.spkiPin(of: "leaf.pem"), "api.example.com", "--chain", "leaf-chain.pem"],
         "give a target or --chain, not both"),
        (["diagnose", Certs.spkiPin(of: "leaf.pem"), "ftp://example.com"], "only https:// URLs"),
        (["diagnose", Certs.spkiPin(of: "leaf.pem"), "--chain", "missing.pem"], "missing.pem"),
    ])
    func badInputExitsTwoSayingWhatIsWrong(_ arguments: [String], _ says: String) throws {
        let result = try PinctlProcess.run(arguments)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(says), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aLiveTargetIsDiagnosedAfterThePins() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let pin = try PinVector.make(.certificate, .sha256, .base64url, of: "leaf.pem")

        let result = try PinctlProcess.run(["diagnose", pin, "127.0.0.1:\(server.port)", "--servername",
                                            "pinning.test"] + LiveRun.anchors)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("the SHA-256 of certificate 0's DER (its fingerprint)"), "\(result)")
    }

    @Test func aFailedConnectionExitsThree() throws {
        let target = "127.0.0.1:\(try HostilePeer.refusedPort())"

        let result = try PinctlProcess.run(["diagnose", Certs.spkiPin(of: "leaf.pem"), target] + LiveRun.anchors)

        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("connection refused"), "\(result)")
    }
}
