import Foundation
import Testing
import TestSupport

/// scripts/build-stores.sh's sources of Android levels besides AOSP's system/ca-certificates (docs/platform-stores.md,
/// "Building"): libcore's history for API 14–23 (`--libcore`, the store at luni/src/main/files/cacerts before
/// system/ca-certificates was split out of libcore in 2015), and the trust store observatory's records
/// (`--observatory`, github.com/nabla-c0d3/trust_stores_observatory: trust_stores/google_aosp.yaml, certificates/).
/// Each is a small git history laid out as the real one is, holding the fixture roots of certs/.
@Suite struct StoresBuilderSourcesTests {
    /// `record RELEASE DATE TRUSTED... [-- BLOCKED...]`: trust_stores/google_aosp.yaml as the observatory's fetcher
    /// writes it, and certificates/<SHA-256 of the DER>.pem for each certificate named.
    static let observatoryPreamble = """
        C='\(Certs.directory)'
        sha() { openssl x509 -in "$C/$1" -outform DER | sha256sum | cut -c1-64; }
        entries() { for f in "$@"; do printf -- '- subject_name: %s\\n  fingerprint: %s\\n' "$f" "$(sha "$f")"; done; }
        record() {
            release=$1 fetched=$2 && shift 2 && trusted= && blocked= && side=trusted
            for f in "$@"; do
                if [ "$f" = -- ]; then side=blocked; continue; fi
                mkdir -p certificates && cp "$C/$f" "certificates/$(sha "$f").pem"
                if [ $side = trusted ]; then trusted="$trusted $f"; else blocked="$blocked $f"; fi
            done
            mkdir -p trust_stores && {
                printf 'platform: GOOGLE_AOSP\\nversion: %s\\n' "$release"
                printf 'url: https://android.googlesource.com/platform/system/ca-certificates\\n'
                printf 'date_fetched: %s\\ntrusted_certificates_count: %s\\n' "$fetched" "$(echo $trusted | wc -w)"
                printf 'trusted_certificates:\\n' && entries $trusted
                printf 'blocked_certificates_count: %s\\nblocked_certificates:\\n' "$(echo $blocked | wc -w)"
                entries $blocked
            } > trust_stores/google_aosp.yaml
        }
        git -c init.defaultBranch=master init -q tso && cd tso

        """

    /// The hex root id (the SHA-256 of the key) of a fixture, from certs/spki-pins.txt (made by the openssl CLI).
    static func rootID(_ fixture: String) -> String {
        let pin = Certs.spkiPin(of: fixture).dropFirst("sha256/".count)
        return (Data(base64Encoded: String(pin)) ?? Data()).map { String(format: "%02x", $0) }.joined()
    }

    /// Runs `script` after StoresCommandTests' history preamble in `directory`.
    static func build(_ script: String, in directory: TemporaryDirectory) throws -> Subprocess.Result {
        try Subprocess.run("/bin/sh", ["-c", StoresCommandTests.historyPreamble + script], in: directory.path)
    }

    static let builder = "'\(Certs.root)/scripts/build-stores.sh'"

    @Test func apiLevelsUpTo23ComeFromLibcoresCacertsByTagOrByRef() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build("""
                C='\(Certs.directory)'
                git -c init.defaultBranch=master init -q libcore && cd libcore && mkdir -p luni/src/main/files/cacerts
                cp "$C/root-ca.pem" luni/src/main/files/cacerts/1a2b3c4d.0
                commit 2011-08-29 'Remove DigiNotar Root CA' android-4.0.1_r1
                cp "$C/other-root-ca.pem" luni/src/main/files/cacerts/5e6f7a8b.0
                commit 2015-06-09 'Update CA certificates' android-6.0.0_r1
                cd .. && \(Self.builder) --out stores --libcore libcore --mozilla none \
                    --android-ref 21=libcore:android-4.0.1_r1
                """, in: directory)
            let first = try ShellPipeline.output("git -C libcore rev-parse android-4.0.1_r1", in: directory.path)
            let second = try ShellPipeline.output("git -C libcore rev-parse android-6.0.0_r1", in: directory.path)
            let (root, other) = (Self.rootID("root-ca.pem"), Self.rootID("other-root-ca.pem"))

            #expect(built.status == 0, "\(built)")
            #expect(built.stdout.hasPrefix("android: 3 versions\n"), "\(built)")
            // A tag the history lacks is named, with the way round it.
            #expect(built.stderr.contains("android API 15: no revision android-4.0.3_r1 in libcore/.git; skipped"),
                    "\(built)")
            #expect(try String(contentsOfFile: directory.path("stores/android.txt"), encoding: .utf8).hasSuffix("""

                version 14
                label Android 4.0 (API 14)
                date 2011-08-29
                source libcore \(first) (android-4.0.1_r1)
                root \(root)

                version 21
                label Android 5.0 (API 21)
                date 2011-08-29
                source libcore \(first) (--android-ref libcore:android-4.0.1_r1, for android-5.0.0_r1)
                root \(root)

                version 23
                label Android 6.0 (API 23)
                date 2015-06-09
                source libcore \(second) (android-6.0.0_r1)
                root \([root, other].sorted()[0])
                root \([root, other].sorted()[1])

                """))
        }
    }

    /// Each level is the release the given commit recorded: its trusted certificates (not the blocked ones), dated
    /// by the day it was fetched, or by the release's publication date where the builder has one (15.0.0_r1).
    @Test func observatoryLevelsAreTheTrustedCertificatesOfTheRecordGiven() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build(Self.observatoryPreamble + """
                record 14.0.0_r2 2023-10-08 root-ca.pem other-root-ca.pem
                commit 2023-10-08 'Automated update of the trust stores' r14
                record 15.0.0_r1 2024-09-08 other-root-ca.pem -- root-ca.pem
                commit 2024-09-08 'Automated update of the trust stores' r15
                cd .. && \(Self.builder) --out stores --observatory tso --mozilla none \
                    --android-ref 34=tso:r14:14.0.0_r2 --android-ref 35=tso:r15:15.0.0_r1
                """, in: directory)
            let r14 = try ShellPipeline.output("git -C tso rev-parse r14", in: directory.path)
            let r15 = try ShellPipeline.output("git -C tso rev-parse r15", in: directory.path)
            let (root, other) = (Self.rootID("root-ca.pem"), Self.rootID("other-root-ca.pem"))

            #expect(built.status == 0, "\(built)")
            #expect(built.stdout == "android: 2 versions\nroots: 2 in stores/roots\n", "\(built)")
            #expect(try String(contentsOfFile: directory.path("stores/android.txt"), encoding: .utf8).hasSuffix("""

                version 34
                label Android 14 (API 34)
                date 2023-10-08
                source trust_stores_observatory \(r14) (aosp 14.0.0_r2)
                root \([root, other].sorted()[0])
                root \([root, other].sorted()[1])

                version 35
                label Android 15 (API 35)
                date 2024-09-03
                source trust_stores_observatory \(r15) (aosp 15.0.0_r1)
                root \(other)

                """))
        }
    }

    /// A record that disagrees with itself or with the ref stops the build (exit 2), naming the file; an old snapshot
    /// in the directory stays as it was, and the run leaves nothing of its own, its staging folder included.
    @Test(arguments: [
        ("cp \"$C/other-root-ca.pem\" \"certificates/$(sha root-ca.pem).pem\"", "34=tso:HEAD:14.0.0_r2",
         "certificates/ROOT.pem: not the certificate whose SHA-256 names it"),
        ("true", "34=tso:HEAD:14.0.0_r9",
         "trust_stores/google_aosp.yaml: records release '14.0.0_r2', not '14.0.0_r9'"),
        ("true", "35=tso:HEAD:14.0.0_r2",
         "trust_stores/google_aosp.yaml: release '14.0.0_r2' is not a release of android-15.0.0_r1's Android version"),
    ])
    func aRecordThatDisagreesStopsTheBuildAndLeavesNothingBehind(_ change: String, _ ref: String, _ reason: String)
        throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build(Self.observatoryPreamble + """
                record 14.0.0_r2 2023-10-08 root-ca.pem
                commit 2023-10-08 'Automated update of the trust stores' r14
                \(change) && git commit -qam 'changed' --allow-empty
                cd .. && \(Self.builder) --out stores --observatory tso --mozilla none \
                    --android-ref 34=tso:r14:14.0.0_r2
                echo built >> stores/android.txt
                \(Self.builder) --out stores --observatory tso --mozilla none --android-ref \(ref) --force \
                    || echo "exit $?"
                \(Self.builder) --out fresh --observatory tso --mozilla none --android-ref \(ref) 2>/dev/null \
                    || echo "exit $?"
                ls -A stores fresh 2>&1
                """, in: directory)
            let sha = try ShellPipeline.output("openssl x509 -in root-ca.pem -outform DER | sha256sum | cut -c1-64")

            #expect(built.stdout.hasSuffix("""
                exit 2
                exit 2
                ls: cannot access 'fresh': No such file or directory
                stores:
                FORMAT
                android.txt
                roots
                roots.index

                """), "\(built)")
            #expect(built.stderr.contains(reason.replacingOccurrences(of: "ROOT", with: sha)), "\(built)")
            #expect(try String(contentsOfFile: directory.path("stores/android.txt"), encoding: .utf8)
                .hasSuffix("built\n"))
        }
    }
}
