import Foundation
import Testing
import TestSupport

/// Apple's CT log list of a snapshot (`apple-ct-logs.cnf`) is data: what its values say reaches `stores -v` and the
/// verdicts as written, a directive is refused at once, and what scripts/build-stores.sh writes is what pinctl reads
/// (issue #32). On the snapshots of CertificateTransparencyTests.
@Suite struct CTLogListDataTests {
    static let secret = "hunter2-ct-secret"
    static let environment = ["PINCTL_CT_SECRET": secret]

    /// Replaces `old` with `new` in the built list.
    func edit(_ directory: TemporaryDirectory, _ old: String, _ new: String) throws {
        let path = directory.path("stores/apple-ct-logs.cnf")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try directory.write("stores/apple-ct-logs.cnf", text: text.replacingOccurrences(of: old, with: new))
    }

    @Test func storesVerbosePrintsAnEnvironmentReferenceAsWritten() throws {
        try CertificateTransparencyTests.withStores { directory in
            try edit(directory, "list_source = security_certificates", "list_source = $ENV::PINCTL_CT_SECRET and")
            let result = try PinctlProcess.run(["stores", "ios@17", "-v", "--stores", "stores"], in: directory.path,
                                               environment: Self.environment)

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("  source $ENV::PINCTL_CT_SECRET and "), "\(result)")
            #expect(!result.stdout.contains(Self.secret), "\(result)")
        }
    }

    @Test func aLogsDescriptionReachesTheVerdictAsWritten() throws {
        try CertificateTransparencyTests.withStores { directory in
            try edit(directory, "description = CT Log B", "description = CT Log B $ENV::PINCTL_CT_SECRET")
            let arguments = ["verify", "--chain", "ct/leaf-bad-signature-chain.pem", "--host", "ct.test", "--at",
                             TestTime.nowText, "--stores", directory.path("stores"), "--platform", "ios@17"]
            for format in ["text", "json", "sarif"] {
                let result = try PinctlProcess.run(arguments + ["--format", format], environment: Self.environment)

                #expect(result.status == 1, "\(result)")
                #expect(result.stdout.contains("from CT Log B $ENV::PINCTL_CT_SECRET (Operator B), whose signature "
                    + "does not verify"), "\(format): \(result)")
                #expect(!result.stdout.contains(Self.secret), "\(format): \(result)")
            }
        }
    }

    /// OpenSSL's parser opened a FIFO named by `.include` and waited for a writer for ever.
    @Test func anIncludeOfAFIFOIsRefusedAtOnce() throws {
        try CertificateTransparencyTests.withStores { directory in
            _ = try ShellPipeline.output("mkfifo stores/fifo && echo made", in: directory.path)
            try edit(directory, "list_date = ", ".include \(directory.path("stores/fifo"))\nlist_date = ")
            let started = Date()
            let result = try PinctlProcess.run(
                ["verify", "--chain", "ct/leaf-2-scts-chain.pem", "--host", "ct.test", "--at", TestTime.nowText,
                 "--stores", directory.path("stores"), "--platform", "ios@17"], timeout: 20)

            #expect(Date().timeIntervalSince(started) < 10)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("apple-ct-logs.cnf:2: a directive (`.include…`): a CT log list is data and "
                + "has none"), "\(result)")
        }
    }

    /// Apple's history with log B's description set by a Python expression, built into `stores/`.
    static func history(description: String) -> String {
        StoresCommandTests.historyPreamble + """
            git -c init.defaultBranch=main init -q apple && cd apple
            mkdir -p certificates/roots config && cp '\(Certs.directory)/ct/root.pem' certificates/roots/CT.cer && ctlist
            python3 -c 'import json; p = "certificate_transparency/log_list.json"; d = json.load(open(p)); \
            [log.update(description=\(description)) for o in d["operators"] for log in o["logs"] \
            if log["description"] == "CT Log B"]; json.dump(d, open(p, "w"))'
            plist 2024051500 > config/AssetVersion.plist
            commit 2025-09-01 'trust store 2024051500' security_certificates-55313.0.8
            cd .. && '\(Certs.root)/scripts/build-stores.sh' --out stores --apple apple --mozilla none 2>&1
            """
    }

    /// The builder escapes what OpenSSL's syntax gives a meaning (\ " ' $ #); pinctl reads each as itself.
    @Test func whatTheBuilderWritesIsWhatPinctlReads() throws {
        try TemporaryDirectory.with { directory in
            let built = try ShellPipeline.output(Self.history(description: #""CT Log B \u0027q\u0027 \"d\" $HOME #h \\ b""#),
                                                 in: directory.path)
            #expect(built.contains("apple CT logs: 4 trusted, 1 pending or rejected"), "\(built)")
            let result = try PinctlProcess.run(
                ["verify", "--chain", "ct/leaf-bad-signature-chain.pem", "--host", "ct.test", "--at", TestTime.nowText,
                 "--stores", directory.path("stores"), "--platform", "ios@18"])

            #expect(result.stdout.contains(#"from CT Log B 'q' "d" $HOME #h \ b (Operator B), whose signature does "#
                + "not verify"), "\(result)")
        }
    }

    /// A character pinctl refuses (a bidi override, a control) is refused by the builder, which names the log.
    @Test func theBuilderRefusesADescriptionPinctlWouldRefuse() throws {
        try TemporaryDirectory.with { directory in
            let built = try Subprocess.run("/bin/sh", ["-c", Self.history(description: #""CT Log B \u202e""#)],
                                           in: directory.path)

            #expect(built.status != 0, "\(built)")
            #expect(built.stdout.contains("log 'CT Log B \\u202e': 'CT Log B \\u202e': not printable text of at most "
                + "256 characters, which pinctl refuses"), "\(built)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("stores/apple-ct-logs.cnf")))
        }
    }

    /// Apple's list as scripts/build-stores.sh writes it from security_certificates: the team's snapshot beside the
    /// repository (SharedData; built on each machine, never committed).
    @Test func applesRealListIsReadWhole() throws {
        let result = try PinctlProcess.run(["stores", "ios", "-v", "--stores", try SharedData.stores()])

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Apple CT log list of 2025-10-16: 49 logs trusted, 83 pending or rejected\n"),
                "\(result)")
    }
}
