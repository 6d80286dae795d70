import Foundation
import Testing
import TestSupport

/// `pinctl stores` and `stores diff` on snapshots that scripts/build-stores.sh builds from small git histories laid out
/// as AOSP's system/ca-certificates and Apple's security_certificates are, holding the fixture roots of certs/.
@Suite struct StoresCommandTests {
    /// What every history script starts with: a fixed committer, and `commit DATE MESSAGE TAG` and
    /// `plist VERSION` (Apple's config/AssetVersion.plist).
    static let historyPreamble = """
        set -e
        export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@pinning.test GIT_COMMITTER_NAME=test \
        GIT_COMMITTER_EMAIL=test@pinning.test
        commit() { git add -A && GIT_COMMITTER_DATE="$1T12:00:00Z" git commit -qm "$2" && git tag "$3"; }
        plist() { printf '<plist><dict><key>VersionNumber</key>\\n\\t<integer>%s</integer></dict></plist>\\n' "$1"; }
        # Apple's CT log list, of the test logs of certs/ct/ (scripts/make-ct-certs.sh).
        ctlist() { mkdir -p certificate_transparency && cp '\(Certs.directory)/ct/log_list.json' certificate_transparency/; }

        """

    /// Two AOSP releases (API 24 without the Other Test root, API 25 with it) and two Apple trust stores (iOS 17 and
    /// macOS 14 with both roots; iOS 18 and macOS 15 with the pinctl Test root moved to certificates/removed), with
    /// fixed commit dates, built into `stores/`.
    static let histories = historyPreamble + """
        C='\(Certs.directory)'
        git -c init.defaultBranch=main init -q aosp && cd aosp && mkdir files
        cp "$C/root-ca.pem" files/1a2b3c4d.0
        commit 2016-08-01 'CA certificates' android-7.0.0_r1
        cp "$C/other-root-ca.pem" files/5e6f7a8b.0
        commit 2016-12-05 'Add Other Test Root CA' android-7.1.1_r1
        cd .. && git -c init.defaultBranch=main init -q apple && cd apple
        mkdir -p certificates/roots certificates/removed config
        cp "$C/root-ca.der" certificates/roots/ROOT.cer && cp "$C/other-root-ca.pem" certificates/roots/OTHER.cer
        ctlist
        plist 2023071300 > config/AssetVersion.plist
        commit 2023-09-18 'trust store 2023071300' security_certificates-55291
        git mv certificates/roots/ROOT.cer certificates/removed/ROOT.cer
        plist 2024051500 > config/AssetVersion.plist
        commit 2024-09-16 'trust store 2024051500' security_certificates-55313.0.8
        cd .. && '\(Certs.root)/scripts/build-stores.sh' --out stores --aosp aosp --apple apple --mozilla none
        """

    /// Runs `body` with a directory holding the built `stores/`.
    func withStores(_ body: (TemporaryDirectory) throws -> Void) throws { try Self.withStores(body) }

    /// Runs `body` with a directory holding the built `stores/` (also for the `--platform` tests).
    static func withStores(_ body: (TemporaryDirectory) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            let built = try ShellPipeline.output(Self.histories, in: directory.path)
            #expect(built.hasSuffix("roots: 2 in stores/roots"), "\(built)")
            try body(directory)
        }
    }

    /// Appends `line` to the snapshot file `name` of `directory`; the number of the line it lands on.
    func append(_ line: String, to name: String, in directory: TemporaryDirectory) throws -> Int {
        let path = directory.path("stores/\(name)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).count
    }

    func stores(_ arguments: [String], in directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["stores"] + arguments + ["--stores", "stores"], in: directory.path)
    }

    static let testRoot = "\(Certs.spkiPin(of: "root-ca.pem"))  CN=pinctl Test Root CA,O=pinctl Test"
    static let otherRoot = "\(Certs.spkiPin(of: "other-root-ca.pem"))  CN=Other Test Root CA,O=Other Test"

    @Test func listsEveryVersionWithItsSnapshotDateAndRootCount() throws {
        try withStores { directory in
            let result = try stores([], in: directory)

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                snapshots in stores (from --stores); newest snapshot 2024-05-15
                snapshot    date        roots  label
                android@24  2016-08-01      1  Android 7.0 (API 24)
                android@25  2016-12-05      2  Android 7.1.1 (API 25)
                ios@17      2023-07-13      2  iOS 17
                ios@18      2024-05-15      1  iOS 18
                macos@14    2023-07-13      2  macOS 14
                macos@15    2024-05-15      1  macOS 15
                Apple CT log list of 2024-09-16: 4 logs trusted, 1 pending or rejected

                """)
        }
    }

    /// A version two selectors name is listed once, where it was first named.
    @Test func aVersionNamedTwiceIsListedOnce() throws {
        try withStores { directory in
            let result = try stores(["android@25", "android@24-25"], in: directory)

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                snapshots in stores (from --stores); newest snapshot 2024-05-15
                snapshot    date        roots  label
                android@25  2016-12-05      2  Android 7.1.1 (API 25)
                android@24  2016-08-01      1  Android 7.0 (API 24)

                """, "\(result)")
        }
    }

    /// The CT log list is Apple's: a listing of Android alone does not name it.
    @Test func theCTLogListIsListedWithApplesVersionsOnly() throws {
        try withStores { directory in
            let android = try stores(["android"], in: directory)
            let apple = try stores(["ios@17", "--verbose"], in: directory)
            let commit = try ShellPipeline.output("git -C apple rev-parse security_certificates-55313.0.8^{commit}",
                                                  in: directory.path)

            #expect(!android.stdout.contains("CT log list"), "\(android)")
            #expect(apple.stdout.hasSuffix("Apple CT log list of 2024-09-16: 4 logs trusted, 1 pending or rejected\n"
                + "  source security_certificates \(commit) (security_certificates-55313.0.8)\n"), "\(apple)")
        }
    }

    @Test func aRootAddedAtAPI25IsAbsentAtAPI24AndPresentFromAPI25() throws {
        try withStores { directory in
            let result = try stores(["diff", "android@24", "android@25"], in: directory)

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                in android@24 (Android 7.0 (API 24), 2016-08-01), not in android@25: 0 roots
                in android@25 (Android 7.1.1 (API 25), 2016-12-05), not in android@24: 1 root
                  \(Self.otherRoot)

                """)
        }
    }

    @Test func aRootAppleMovedToRemovedIsAbsentFromTheNextTrustStore() throws {
        try withStores { directory in
            let result = try stores(["diff", "ios@17", "ios@18"], in: directory)
            let across = try stores(["diff", "macos@15", "android@24"], in: directory)

            #expect(result.stdout == """
                in ios@17 (iOS 17, 2023-07-13), not in ios@18: 1 root
                  \(Self.testRoot)
                in ios@18 (iOS 18, 2024-05-15), not in ios@17: 0 roots

                """, "\(result)")
            #expect(across.stdout == """
                in macos@15 (macOS 15, 2024-05-15), not in android@24: 1 root
                  \(Self.otherRoot)
                in android@24 (Android 7.0 (API 24), 2016-08-01), not in macos@15: 1 root
                  \(Self.testRoot)

                """, "\(across)")
        }
    }

    @Test func theVerboseListNamesTheSourceCommitAndTag() throws {
        try withStores { directory in
            let result = try stores(["list", "ios@17", "--verbose"], in: directory)
            let commit = try ShellPipeline.output("git -C apple rev-parse security_certificates-55291^{commit}",
                                                  in: directory.path)

            #expect(result.status == 0, "\(result)")
            // Then the CT log list's line (theCTLogListIsListedWithApplesVersionsOnly).
            #expect(result.stdout.hasPrefix("""
                snapshots in stores (from --stores); newest snapshot 2024-05-15
                snapshot  date        roots  label
                ios@17    2023-07-13      2  iOS 17
                          source security_certificates \(commit) (trust store 2023071300, security_certificates-55291)

                """), "\(result)")
        }
    }

    @Test(arguments: [
        (["diff", "android@23", "android@25"],
         "android has no snapshot of version 23 (in \"android@23\"); the snapshots in stores have 24, 25"),
        (["diff", "android@24", "windows@10"], "unknown platform \"windows\" in \"windows@10\""),
        (["diff", "android@24-25", "ios@17"], "stores diff compares two versions: name one version on each side"),
        (["list", "ios@16-18"], "ios has no snapshot of version 16"),
    ])
    func aVersionOrPlatformWithoutSnapshotIsAnInputErrorNamingWhatThereIs(_ arguments: [String], _ reason: String)
        throws {
        try withStores { directory in
            let result = try stores(arguments, in: directory)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(reason), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    /// StoreLocationTests has the order of the places looked, and the error when none has snapshots.
    @Test func theDirectoryComesFromPINCTL_STORESWhenNoOptionNamesIt() throws {
        try withStores { directory in
            let result = try PinctlProcess.run(["stores", "macos@14"], in: directory.path,
                                               environment: ["PINCTL_STORES": directory.path("stores")])

            #expect(result.stdout == """
                snapshots in \(directory.path("stores")) (from PINCTL_STORES); newest snapshot 2024-05-15
                snapshot  date        roots  label
                macos@14  2023-07-13      2  macOS 14
                Apple CT log list of 2024-09-16: 4 logs trusted, 1 pending or rejected

                """, "\(result)")
        }
    }

    @Test func aMalformedMembershipFileIsRefusedAtItsLine() throws {
        try withStores { directory in
            let lines = try append("root ../../etc/passwd", to: "ios.txt", in: directory)

            let result = try stores(["ios@18"], in: directory)

            #expect(result.status == 2, "\(result)")
            // The line is named, not quoted (a --stores directory can hold any file).
            #expect(result.stderr.contains("stores/ios.txt:\(lines): version 18: a root id is 64 lowercase hex "
                + "digits, optionally `-` and 8 more"), "\(result)")
            #expect(!result.stderr.contains("passwd"), "\(result)")
        }
    }

    /// A snapshot without an index has every root of every version named read for its name (#33): the list says so,
    /// and how to index it. With every root indexed (the builder's snapshots, above) it says nothing.
    @Test func aSnapshotWithoutAnIndexIsListedWithHowToIndexIt() throws {
        try withStores { directory in
            try FileManager.default.removeItem(atPath: directory.path("stores/roots.index"))

            let result = try stores(["android"], in: directory)

            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix("""
                android@25  2016-12-05      2  Android 7.1.1 (API 25)
                no root index (roots.index): a command naming these versions reads all 2 of their roots to learn \
                their names; scripts/index-stores.sh stores writes one, and then only the roots a chain can reach are \
                read

                """), "\(result)")
        }
    }

    /// An index that lacks a root of the listed versions is named with how many it lacks; versions whose roots it all
    /// names are listed without a word on it.
    @Test func anIndexLackingARootOfTheListedVersionsSaysHowManyItLacks() throws {
        try withStores { directory in
            // The other root's id: the SHA-256 of its key, as scripts/build-stores.sh names it.
            let other = try ShellPipeline.output(
                "openssl x509 -in other-root-ca.pem -pubkey -noout | openssl pkey -pubin -outform DER | sha256sum")
                .prefix(64)
            let path = directory.path("stores/roots.index")
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            let kept = lines.filter { !$0.hasPrefix(other) }
            #expect(kept.count == lines.count - 1)
            try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)

            let lacking = try stores(["android@25"], in: directory)
            let complete = try stores(["android@24"], in: directory)

            #expect(lacking.status == 0, "\(lacking)")
            #expect(lacking.stdout.hasSuffix("""
                android@25  2016-12-05      2  Android 7.1.1 (API 25)
                roots.index does not name 1 of the 2 roots of these versions: a command naming them reads those to \
                learn their names; scripts/index-stores.sh --force stores indexes them all

                """), "\(lacking)")
            #expect(complete.status == 0, "\(complete)")
            #expect(!complete.stdout.contains("index"), "\(complete)")
        }
    }

    /// No CT log list is a fact the list states (a snapshot of Android alone has none); one that cannot be read is
    /// the error a run on Apple's versions gives, with its exit 2, not a line of the list.
    @Test func aMissingCTLogListIsListedAndABrokenOneIsAnInputError() throws {
        try withStores { directory in
            let lines = try append("\u{0}", to: "apple-ct-logs.cnf", in: directory)

            let broken = try stores(["ios@17"], in: directory)
            try FileManager.default.removeItem(atPath: directory.path("stores/apple-ct-logs.cnf"))
            let missing = try stores(["ios@17"], in: directory)

            #expect(broken.status == 2, "\(broken)")
            #expect(broken.stderr.contains("stores/apple-ct-logs.cnf:\(lines): holds a NUL byte"), "\(broken)")
            #expect(missing.status == 0, "\(missing)")
            #expect(missing.stdout.hasSuffix("""
                ios@17    2023-07-13      2  iOS 17
                no Apple CT log list (apple-ct-logs.cnf): judging on iOS 12 and macOS 10.14 or later needs one; \
                rebuild the snapshots with scripts/build-stores.sh from a security_certificates clone

                """), "\(missing)")
        }
    }

    /// The list reads the index as a run does: a line it cannot read is the same input error, at its line.
    @Test func anIndexLineThatCannotBeReadIsRefusedAtItsLine() throws {
        try withStores { directory in
            let lines = try append("not an index line", to: "roots.index", in: directory)

            let result = try stores(["android"], in: directory)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("stores/roots.index:\(lines): expected `ID SUBJECT ISSUER`"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    /// Only a command that asks for a platform reads the snapshots: a broken PINCTL_STORES changes nothing else.
    @Test func commandsThatNameNoPlatformDoNotReadTheSnapshots() throws {
        let result = try PinctlProcess.run(
            ["verify", "--chain", "leaf-chain.pem", "--ca-file", "root-ca.pem", "--host", "pinning.test",
             "--at", TestTime.nowText], environment: ["PINCTL_STORES": "/nonexistent/stores"])

        #expect(result.status == 0, "\(result)")
    }
}
