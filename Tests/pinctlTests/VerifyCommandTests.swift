import Foundation
import Testing
import TestSupport

/// End-to-end: the built `pinctl verify`, its output and exit codes (DESIGN §3), run in `certs/`.
@Suite struct VerifyCommandTests {
    let base = ["verify", "--ca-file", "root-ca.pem", "--at", TestTime.nowText]

    func verify(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(base + arguments)
    }

    @Test func pinnedKeyIsTrustedAndTheMatchingPinIsNamed() throws {
        let result = try verify(["--chain", "leaf-chain.pem", "--host", "pinning.test", "--mode", "publickey",
                                 "--pins", "pins/leaf.pin"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("TRUSTED"))
        #expect(result.stdout.contains("pin pins/leaf.pin:2 matched certificate #0"))
        #expect(result.stdout.contains("#2 CN=pinctl Test Root CA,O=pinctl Test  [from the trust store]"))
        #expect(result.stdout.contains("days left"))
        #expect(result.stderr.contains("no backup pin"))
    }

    @Test func expiredLeafIsRejectedWithExitOneNamingTheCertificate() throws {
        let result = try verify(["--chain", "expired.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("REJECTED"))
        #expect(result.stdout.contains("expired: certificate #0 (CN=pinning.test) expired on 2021-01-01T00:00:00Z"))
    }

    @Test func rekeyedLeafFailsPublicKeyPinningAndListsEveryKeyBesideThePins() throws {
        let result = try verify(["--chain", "leaf-rekeyed.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test",
                                 "--mode", "publickey", "--pins", "leaf.pem"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("public key not pinned"))
        #expect(result.stdout.contains("#0 sha256/"))
        #expect(result.stdout.contains("(leaf.pem)"))
    }

    @Test func renewedLeafKeepsPublicKeyPinningButFailsCertificatePinning() throws {
        let chain = ["--chain", "leaf-renewed.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test", "--pins", "leaf.pem"]
        #expect(try verify(chain + ["--mode", "publickey"]).status == 0)
        let certificate = try verify(chain + ["--mode", "certificate"])
        #expect(certificate.status == 1, "\(certificate)")
        #expect(certificate.stdout.contains("REJECTED"))
    }

    @Test func jsonFollowsTheContractShape() throws {
        let result = try verify(["--chain", "leaf-chain.pem", "--host", "pinning.test", "--mode", "publickey",
                                 "--pins", "pins/", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["target"] as? String == "leaf-chain.pem")
        #expect(object["domain"] as? String == "pinning.test")
        #expect(object["evaluatedAt"] as? String == TestTime.nowText)
        #expect(object["verdict"] as? String == "trusted")
        #expect(object["tls"] == nil)
        let policy = try #require(object["policy"] as? [String: Any])
        #expect(policy["mode"] as? String == "publickey")
        #expect(policy["pins"] as? Int == 3)
        #expect(policy["allowInvalidCertificates"] as? Bool == false)
        #expect(policy["validatesDomainName"] as? Bool == true)
        let matched = try #require(object["matchedPin"] as? [String: Any])
        #expect(matched["certificate"] as? Int == 0)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 3)
        #expect(chain.map { $0["presented"] as? Bool } == [true, true, false])
        #expect(chain[0]["spki"] as? String == "sha256/" + (try leafPinBase64()))
        #expect((chain[0]["sans"] as? [String])?.contains("IP:::1") == true)
        #expect(result.stdout.contains("\"sha256/"), "slashes are not escaped")
    }

    @Test func jsonRejectionCarriesCodeMessageAndCertificateIndex() throws {
        let result = try verify(["--chain", "wrong-host.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test",
                                 "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reason = try #require(object["reason"] as? [String: Any])
        #expect(object["verdict"] as? String == "rejected")
        #expect(reason["code"] as? String == "hostname-mismatch")
        #expect(reason["certificate"] as? Int == 0)
        #expect((reason["message"] as? String)?.contains("DNS:wrong.test") == true)
    }

    @Test func contradictionIsAConfigurationErrorWithExitTwo() throws {
        let result = try verify(["--chain", "self-signed.pem", "--host", "pinning.test", "--allow-invalid-certificates",
                                 "--format", "json"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("\"verdict\":\"rejected\""))
        #expect(result.stdout.contains("\"code\":\"contradiction\""))
    }

    @Test func withoutAHostTheContradictionNeverFiresAndAWarningSaysNoNameWasChecked() throws {
        let result = try verify(["--chain", "self-signed.pem", "--allow-invalid-certificates"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("accepts any certificate"))
        #expect(result.stderr.contains("no domain was given"))
    }

    @Test func noValidateDomainNameAcceptsAWrongHost() throws {
        let result = try verify(["--chain", "wrong-host.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test",
                                 "--no-validate-domain-name"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func missingIntermediateIsAnUntrustedChainWithOpenSSLsReason() throws {
        let result = try verify(["--chain", "leaf.pem", "--host", "pinning.test"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("untrusted chain: certificate #0 (CN=pinning.test): unable to get local issuer certificate"))
    }

    @Test func atAcceptsAnEpochAndFixesTheEvaluationTime() throws {
        let chain = ["--ca-file", "root-ca.pem", "--chain", "leaf-chain.pem", "--host", "pinning.test"]
        // @1780272000 is 2026-06-01; on 2024-06-01 (@1717200000) the CAs (from 2025-01-01) were not yet valid.
        let now = try PinctlProcess.run(["verify", "--at", "@1780272000"] + chain)
        #expect(now.status == 0, "\(now)")
        let before = try PinctlProcess.run(["verify", "--at", "@1717200000"] + chain)
        #expect(before.status == 1, "\(before)")
        #expect(before.stdout.contains("evaluated at 2024-06-01T00:00:00Z"), "\(before)")
    }

    /// The leaf has 12 days left at that time: warned about within 13 days, not within 10 (the default, 30, would warn
    /// in both runs, so the option is what changes the outcome).
    @Test func certificateExpiringWithinWarnDaysIsWarnedAbout() throws {
        func run(warnDays: String) throws -> PinctlProcess.Result {
            try PinctlProcess.run(["verify", "--ca-file", "root-ca.pem", "--at", "2020-12-20T00:00:00Z", "--chain",
                                   "expired.pem", "--chain", "intermediate-ca.pem", "--warn-days", warnDays])
        }
        let within = try run(warnDays: "13")
        #expect(within.stderr.contains("certificate #0 CN=pinning.test expires in 12 day(s)"), "\(within)")
        let beyond = try run(warnDays: "10")
        #expect(beyond.status == within.status, "\(beyond)")
        #expect(!beyond.stderr.contains("expires in"), "\(beyond)")
    }

    @Test func quietPrintsNothingWhenTrustedAndTheReasonOnStderrWhenRejected() throws {
        let trusted = try verify(["--chain", "leaf-chain.pem", "--host", "pinning.test", "--quiet"])
        #expect(trusted.status == 0)
        #expect(trusted.stdout.isEmpty && trusted.stderr.isEmpty, "\(trusted)")
        let rejected = try verify(["--chain", "expired.pem", "--chain", "intermediate-ca.pem", "--host", "pinning.test", "-q"])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.isEmpty)
        #expect(rejected.stderr.contains("rejected: expired"), "\(rejected)")
    }

    @Test func versionAndHelpExitZeroAndEveryCommandShowsAnExample() throws {
        let version = try PinctlProcess.run(["--version"])
        #expect(version.status == 0)
        let lines = version.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(version)")
        #expect(lines[0].wholeMatch(of: /pinctl [0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(version)")
        // A commit of this repository as git names it (a tarball's build says "unknown"); not necessarily HEAD, since
        // a commit made after the build leaves the binary as it was.
        let commit = try #require(lines[1].wholeMatch(of: /commit ([0-9a-f]{12}|unknown)(, with changes not committed)?/),
                                  "\(version)")
        if commit.1 != "unknown" {
            #expect(try ShellPipeline.output("git -C .. cat-file -t \(commit.1) 2>&1 || true") == "commit",
                    "\(version)")
        }
        // The OpenSSL pinctl loads is the library the openssl CLI reports ("… (Library: OpenSSL 3.0.x …)").
        let cli = try ShellPipeline.output("openssl version")
        let library = cli.firstMatch(of: /\(Library: (.*)\)/).map { String($0.1) } ?? cli
        #expect(lines[2] == library || lines[2].hasPrefix("\(library) (built with "), "\(version) vs \(cli)")
        for arguments in [["--help"], ["verify", "--help"], ["help", "verify"]] {
            let help = try PinctlProcess.run(arguments)
            #expect(help.status == 0, "\(arguments): \(help)")
            #expect(help.stdout.contains("Examples:"), "\(arguments)")
        }
    }

    func leafPinBase64() throws -> String {
        let line = try String(contentsOfFile: Certs.path("pins/leaf.pin"), encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("sha256/") }!
        return String(line.dropFirst("sha256/".count).prefix { $0 != " " })
    }
}
