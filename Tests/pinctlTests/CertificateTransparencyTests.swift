import Foundation
import Testing
import TestSupport

/// Apple's Certificate Transparency policy on the platform versions that require it (DESIGN §12), on the leaves of
/// certs/ct/ (scripts/make-ct-certs.sh; `openssl s_client -ct` validated their SCTs when they were made). The facts,
/// from Apple HT205280 ("Apple's Certificate Transparency policy") and Security's
/// trust/trustd/CertificateTransparency.m and SecPolicyServer.c: CT is required of a chain to a system root whose leaf was issued from 16 October 2018;
/// embedded SCTs from 2 distinct logs for a lifetime of 180 days or less, 3 up to 825 days; an SCT counts when its
/// signature verifies, its log is on Apple's list and not retired before it; one log counts once.
@Suite struct CertificateTransparencyTests {
    /// AOSP API 24 and Apple's trust stores of iOS 12 and 17 hold the CT root; iOS 18's has it moved to
    /// certificates/removed, so that `--ca-file root.pem` makes it a user root there. Apple's log list (certs/ct's
    /// log_list.json) is committed on 2025-09-01: the list's date.
    static let histories = StoresCommandTests.historyPreamble + """
        C='\(Certs.directory)/ct'
        git -c init.defaultBranch=main init -q aosp && cd aosp && mkdir files
        cp "$C/root.pem" files/1a2b3c4d.0
        commit 2016-08-01 'CA certificates' android-7.0.0_r1
        cd .. && git -c init.defaultBranch=main init -q apple && cd apple
        mkdir -p certificates/roots certificates/removed config
        cp "$C/root.pem" certificates/roots/CT.cer && plist 2018091000 > config/AssetVersion.plist
        commit 2018-09-10 'trust store 2018091000' security_certificates-55093.200.19
        plist 2023071300 > config/AssetVersion.plist
        commit 2023-09-18 'trust store 2023071300' security_certificates-55291
        git mv certificates/roots/CT.cer certificates/removed/CT.cer && ctlist
        plist 2024051500 > config/AssetVersion.plist
        commit 2025-09-01 'trust store 2024051500' security_certificates-55313.0.8
        cd .. && '\(Certs.root)/scripts/build-stores.sh' --out stores --aosp aosp --apple apple --mozilla none
        """

    static func withStores(_ body: (TemporaryDirectory) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            let built = try ShellPipeline.output(Self.histories, in: directory.path)
            #expect(built.contains("apple CT logs: 4 trusted, 1 pending or rejected"), "\(built)")
            try body(directory)
        }
    }

    func verify(_ leaf: String, _ arguments: [String], at time: String = TestTime.nowText,
                stores directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", "ct/\(leaf)-chain.pem", "--host", "ct.test", "--at", time,
                               "--stores", directory.path("stores")] + arguments)
    }

    static let rule = "(Apple's Certificate Transparency policy, HT205280, for a chain to a system root issued from "
        + "16 October 2018; Security CertificateTransparency.m, SecPolicyCheckSystemTrustedCTRequired)"

    @Test func twoLogsAreEnoughForNinetyDaysOnAppleAndOneIsNotFromIOS12() throws {
        try Self.withStores { directory in
            let platforms = ["--platform", "android@24", "--platform", "ios@12-17"]
            let two = try verify("leaf-2-scts", platforms, stores: directory)
            let one = try verify("leaf-1-sct", platforms, stores: directory)

            #expect(two.status == 0, "\(two)")
            #expect(two.stdout.contains("  Android 7.0 (API 24): TRUSTED"
                + " — anchor CT Root CA\n  iOS 12–17: TRUSTED — anchor CT Root CA\n"), "\(two)")
            #expect(one.status == 1, "\(one)")
            #expect(one.stdout.contains("  Android 7.0 (API 24): TRUSTED — anchor CT Root CA\n"), "\(one)")
            #expect(one.stdout.contains("  iOS 12–17: REJECTED platform-rule — platform rule: certificate #0 "
                + "(CN=ct.test): the leaf has SCTs from 1 log Apple's list qualifies, fewer than the 2 that a "
                + "certificate valid for 90 days needs \(Self.rule)\n"), "\(one)")
        }
    }

    /// OpenSSL's store of the logs a chain's SCTs name is made when they are judged, from a file in memory where
    /// Linux has them (`CTLogStore`): nothing is written to TMPDIR, so one that cannot be used changes nothing. (Where
    /// there are none, a TMPDIR that cannot be used is an input error when the list is read.)
    @Test func aTemporaryDirectoryThatCannotBeUsedChangesNothing() throws {
        try Self.withStores { directory in
            let missing = directory.path("no-such-directory")
            let result = try PinctlProcess.run(
                ["verify", "--chain", "ct/leaf-2-scts-chain.pem", "--host", "ct.test", "--at", TestTime.nowText,
                 "--stores", directory.path("stores"), "--platform", "ios@17"],
                environment: ["TMPDIR": missing])

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix("  iOS 17: TRUSTED — anchor CT Root CA\n"), "\(result)")
        }
    }

    /// verify_embedded_sct_policy_v2: "181 to 825 days | 3".
    @Test func aYearLongLeafNeedsThreeLogs() throws {
        try Self.withStores { directory in
            let two = try verify("leaf-365-days-2-scts", ["--platform", "ios@17"], stores: directory)
            let three = try verify("leaf-365-days-3-scts", ["--platform", "ios@17"], stores: directory)

            #expect(two.status == 1, "\(two)")
            #expect(two.stdout.contains("SCTs from 2 logs Apple's list qualifies, fewer than the 3 that a "
                + "certificate valid for 365 days needs"), "\(two)")
            #expect(three.status == 0, "\(three)")
            #expect(three.stdout.hasSuffix("  iOS 17: TRUSTED — anchor CT Root CA\n"), "\(three)")
        }
    }

    @Test(arguments: [
        ("leaf-no-scts", "the chain has no SCTs, and Certificate Transparency is required: none is embedded in the "
            + "leaf, and no server sent any in the TLS extension or an OCSP staple (a live check asks for those)"),
        ("leaf-bad-signature", "not counted: the SCT of 2026-03-31T00:00:00Z from CT Log B (Operator B), whose "
            + "signature does not verify"),
        ("leaf-2-scts-one-log", "not counted: a second SCT from CT Log A (Operator A): each log counts once"),
        ("leaf-retired-log", "not counted: the SCT of 2026-03-31 from CT Log Retired (Operator A), which retired on "
            + "2025-06-01, before that SCT or the certificate's issuance"),
        ("leaf-rejected-log", "not counted: the SCT from CT Log Rejected, a log Apple's list does not trust "
            + "(rejected 2025-06-01T00:00:00Z)"),
    ])
    func anSCTThatDoesNotCountIsNamedWithWhy(leaf: String, why: String) throws {
        try Self.withStores { directory in
            let result = try verify(leaf, ["--platform", "ios@17"], stores: directory)
            let json = try verify(leaf, ["--platform", "ios@17", "--format", "json"], stores: directory)

            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("iOS 17: REJECTED platform-rule"), "\(result)")
            #expect(result.stdout.contains(why), "\(result)")
            #expect(json.stdout.contains(#""code":"platform-rule""#), "\(json)")
        }
    }

    /// DESIGN §12: "an SCT from a log that the snapshot's CT list does not know, when the SCT is newer than the
    /// list, counts as unknown (a warning naming the log id, never a refusal on its account)".
    @Test func anSCTFromALogTheListPredatesIsAWarningAndFromOneItShouldKnowIsNotCounted() throws {
        try Self.withStores { directory in
            let unknown = try String(contentsOfFile: Certs.path("ct/unknown-log-id.txt"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let newer = try verify("leaf-unknown-log-after-list", ["--platform", "ios@17"], stores: directory)
            let older = try verify("leaf-unknown-log-before-list", ["--platform", "ios@17"], stores: directory)

            #expect(newer.status == 0, "\(newer)")
            #expect(newer.stdout.hasSuffix("  iOS 17: TRUSTED — anchor CT Root CA\n"), "\(newer)")
            #expect(newer.stderr.contains("warning: iOS 17: the chain's SCTs from logs \(unknown) are newer than "
                + "Apple's CT log list of 2025-09-01"), "\(newer)")
            #expect(older.status == 1, "\(older)")
            #expect(older.stdout.contains("not counted: the SCT of 2025-07-31T00:00:00Z from log \(unknown), which "
                + "Apple's list of 2025-09-01 does not trust"), "\(older)")
        }
    }

    /// SecPolicyCheckSystemTrustedCTRequired: only for a root "in the system anchor source", and a leaf issued "on
    /// or after 16 Oct 2018".
    @Test func ctIsNotRequiredOnAUserRootNorOfALeafIssuedBefore16October2018() throws {
        try Self.withStores { directory in
            let user = try verify("leaf-no-scts", ["--platform", "ios@18", "--ca-file", "ct/root.pem"],
                                  stores: directory)
            let system = try verify("leaf-no-scts", ["--platform", "ios@17"], stores: directory)
            let old = try verify("leaf-2018-no-scts", ["--platform", "ios@17"], at: "2019-01-01T00:00:00Z",
                                 stores: directory)

            #expect(user.status == 0, "\(user)")
            #expect(user.stdout.hasSuffix("  iOS 18: TRUSTED — anchor CT Root CA\n"), "\(user)")
            #expect(system.status == 1, "\(system)")
            #expect(old.status == 0, "\(old)")
            #expect(old.stdout.hasSuffix("  iOS 17: TRUSTED — anchor CT Root CA\n"), "\(old)")
        }
    }

    @Test func aSnapshotWithoutAppleSLogListCannotJudgeIOSAndSaysHowToGetOne() throws {
        try Self.withStores { directory in
            try FileManager.default.removeItem(atPath: directory.path("stores/apple-ct-logs.cnf"))
            let apple = try verify("leaf-2-scts", ["--platform", "ios@17"], stores: directory)
            let android = try verify("leaf-2-scts", ["--platform", "android@24"], stores: directory)

            #expect(apple.status == 2, "\(apple)")
            #expect(apple.stderr.contains("has no Apple CT log list (apple-ct-logs.cnf), which judging on iOS 12 "
                + "and macOS 10.14 or later needs"), "\(apple)")
            #expect(android.status == 0, "\(android)")
        }
    }

    /// The same policy on a live handshake: `check` of a loopback server presenting the chain.
    @Test(arguments: [("leaf-2-scts", 0, "  iOS 17: TRUSTED — anchor CT Root CA\n"),
                      ("leaf-1-sct", 1, "  iOS 17: REJECTED platform-rule")])
    func checkOfALiveServerAppliesThePolicy(leaf: String, status: Int32, line: String) throws {
        try Self.withStores { directory in
            let server = try TLSTestServer(chainPEM: Certs.path("ct/\(leaf)-chain.pem"),
                                           keyPath: Certs.path("ct/leaf.key"))
            defer { server.stop() }
            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--servername", "ct.test", "--at", TestTime.nowText,
                 "--platform", "ios@17", "--stores", directory.path("stores")])

            #expect(result.status == status, "\(result)")
            #expect(result.stdout.contains(line), "\(result)")
        }
    }

    /// verify_tls_ct_policy: "B1: SCTs from 2 currently valid logs (from any source); B2: At least 1 external SCT from
    /// a currently valid log". openssl s_server sends the SCTs of certs/ct's serverinfo files in the TLS extension
    /// (TLS 1.2's ServerHello) for a leaf with none embedded; `openssl s_client -ct` found them valid.
    @Test(arguments: [("two-logs", 0, "  iOS 17: TRUSTED — anchor CT Root CA\n"),
                      ("one-log", 1, "and the server sent SCTs from 1 log still qualified, where 2 logs in all, one "
                        + "of them sent, would do")])
    func sctsTheServerSendsCountOnALiveCheck(serverinfo: String, status: Int32, expected: String) throws {
        try Self.withStores { directory in
            let chain = try String(contentsOfFile: Certs.path("ct/leaf-no-scts-chain.pem"), encoding: .utf8)
            let end = "-----END CERTIFICATE-----\n"
            let leaf = try directory.write("leaf.pem", text: String(chain[..<chain.range(of: end)!.upperBound]))
            let server = try OpenSSLServer(["-cert", leaf, "-key", Certs.path("ct/leaf.key"), "-cert_chain",
                                            Certs.path("ct/leaf-no-scts-chain.pem"), "-serverinfo",
                                            Certs.path("ct/tls-scts-\(serverinfo).serverinfo"), "-tls1_2"])
            defer { server.stop() }
            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "--servername", "ct.test", "--at", TestTime.nowText,
                 "--platform", "ios@17", "--stores", directory.path("stores")])
            let offline = try verify("leaf-no-scts", ["--platform", "ios@17"], stores: directory)

            #expect(result.status == status, "\(result)")
            #expect(result.stdout.contains(expected), "\(result)")
            #expect(offline.status == 1, "\(offline)")
        }
    }
}
