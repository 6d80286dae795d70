import Foundation
import Testing
import TestSupport

/// What scripts/build-stores.sh writes besides the roots (docs/platform-stores.md): the date and source line of each
/// block, and which files of the output directory it replaces. Small git histories as in StoresCommandTests.
@Suite struct StoresBuilderTests {
    static let builder = StoresBuilderSourcesTests.builder

    static func build(_ script: String, in directory: TemporaryDirectory) throws -> Subprocess.Result {
        try StoresBuilderSourcesTests.build(script, in: directory)
    }

    /// An AOSP history of one release, API 24's, holding the pinctl Test root; leaves the shell in `aosp`.
    static let oneRelease = """
        git -c init.defaultBranch=main init -q aosp && cd aosp && mkdir files
        cp '\(Certs.path("root-ca.pem"))' files/1a2b3c4d.0
        commit 2016-08-01 'CA certificates' android-7.0.0_r1

        """

    static func text(_ name: String, in directory: TemporaryDirectory) throws -> String {
        try String(contentsOfFile: directory.path(name), encoding: .utf8)
    }

    /// Apple's tags up to iOS 17's write the trust store version as `<real>` (security_certificates-55291's
    /// config/AssetVersion.plist: `<real>2023071300</real>`), later ones as `<integer>`: both date the block by the
    /// trust store, not by the commit that imported the tag years later, and name it in the source line.
    @Test func applesTrustStoreVersionDatesTheBlockWhetherWrittenAsRealOrInteger() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build("""
                C='\(Certs.directory)'
                real() { printf '<plist><dict><key>VersionNumber</key>\\n\\t<real>%s</real></dict></plist>\\n' "$1"; }
                git -c init.defaultBranch=main init -q apple && cd apple && mkdir -p certificates/roots config
                cp "$C/root-ca.der" certificates/roots/ROOT.cer
                real 2018071800 > config/AssetVersion.plist
                commit 2021-10-06 'security_certificates-55093.200.19' security_certificates-55093.200.19
                plist 2024051500 > config/AssetVersion.plist
                commit 2024-09-16 'security_certificates-55313.0.8' security_certificates-55313.0.8
                cd .. && \(Self.builder) --out stores --apple apple --mozilla none
                """, in: directory)
            let old = try ShellPipeline.output("git -C apple rev-parse security_certificates-55093.200.19",
                                               in: directory.path)
            let new = try ShellPipeline.output("git -C apple rev-parse security_certificates-55313.0.8",
                                               in: directory.path)
            let root = StoresBuilderSourcesTests.rootID("root-ca.pem")

            #expect(built.status == 0, "\(built)")
            #expect(try Self.text("stores/macos.txt", in: directory).hasSuffix("""

                version 10.14
                label macOS 10.14
                date 2018-07-18
                source security_certificates \(old) (trust store 2018071800, security_certificates-55093.200.19)
                root \(root)

                version 15
                label macOS 15
                date 2024-05-15
                source security_certificates \(new) (trust store 2024051500, security_certificates-55313.0.8)
                root \(root)

                """))
        }
    }

    /// A level taken from another revision than its release tag says so: the ref as given, and the release it stands
    /// for, even when the ref is the commit itself.
    @Test func anAndroidRefsSourceLineNamesTheRefAndTheReleaseItStandsFor() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build(Self.oneRelease + """
                first=$(git rev-parse HEAD)
                cp '\(Certs.path("other-root-ca.pem"))' files/5e6f7a8b.0
                git add -A && GIT_COMMITTER_DATE=2016-08-29T12:00:00Z git commit -qm 'Update CA certificates'
                cd .. && \(Self.builder) --out stores --aosp aosp --mozilla none 2>/dev/null \
                    --android-ref 24=$first --android-ref 25=main
                """, in: directory)
            let first = try ShellPipeline.output("git -C aosp rev-parse main~1", in: directory.path)
            let second = try ShellPipeline.output("git -C aosp rev-parse main", in: directory.path)
            let sources = try Self.text("stores/android.txt", in: directory).split(separator: "\n")
                .filter { $0.hasPrefix("source ") }

            #expect(built.status == 0, "\(built)")
            #expect(sources == [
                "source system/ca-certificates \(first) (--android-ref \(first), for android-7.0.0_r1)",
                "source system/ca-certificates \(second) (--android-ref main, for android-7.1.1_r1)",
            ])
        }
    }

    /// The mozilla block names where its roots come from on any machine, Debian's package and version, and not the
    /// directory this machine read them from; a directory that is not the installed package's needs its version.
    @Test func mozillasSourceLineNamesTheDebianPackageAndVersionNotAPath() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build("""
                mkdir mozilla && cp '\(Certs.path("root-ca.pem"))' mozilla/pinctl_Test_Root_CA.crt
                \(Self.builder) --out unversioned --mozilla mozilla || echo "exit $?"
                \(Self.builder) --out stores --mozilla mozilla --mozilla-version 20230311+deb12u1
                """, in: directory)

            #expect(built.stdout.hasPrefix("exit 2\nmozilla: 1 versions\n"), "\(built)")
            #expect(built.stderr.contains("--mozilla 'mozilla': no version: give --mozilla-version, the Debian "
                + "ca-certificates version it holds"), "\(built)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("unversioned")))
            #expect(try Self.text("stores/mozilla.txt", in: directory).hasSuffix("""

                version 20230311
                label Mozilla NSS as Debian ca-certificates 20230311+deb12u1
                date 2023-03-11
                source Debian ca-certificates 20230311+deb12u1
                root \(StoresBuilderSourcesTests.rootID("root-ca.pem"))

                """))
        }
    }

    /// A build stopped by SIGTERM midway (here by the first openssl it runs, an impostor that signals the builder)
    /// exits 143 and leaves nothing: not its staging folder, nor the output directory it made.
    @Test func aBuildEndedBySIGTERMLeavesNothingBehind() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build(Self.oneRelease + """
                cd .. && mkdir bin && printf '#!/bin/sh\\nkill -TERM $PPID\\nsleep 5\\n' > bin/openssl
                chmod +x bin/openssl
                PATH="$PWD/bin:$PATH" \(Self.builder) --out stores --aosp aosp --mozilla none 2>/dev/null \
                    || echo "exit $?"
                ls -A
                """, in: directory)

            #expect(built.stdout == "exit 143\naosp\nbin\n", "\(built)")
        }
    }

    /// `--force` replaces the snapshot, not the directory: files the builder does not write (notes, a provenance file
    /// such as stores.md) stay.
    @Test func forceReplacesOnlyTheFilesTheBuilderWrites() throws {
        try TemporaryDirectory.with { directory in
            let built = try Self.build(Self.oneRelease + """
                cd .. && \(Self.builder) --out stores --aosp aosp --mozilla none 2>/dev/null
                echo 'my notes' > stores/notes.txt && echo '# provenance' > stores/stores.md
                echo 'version 99' >> stores/android.txt && touch stores/roots/stale.pem
                \(Self.builder) --out stores --aosp aosp --mozilla none --force 2>/dev/null
                ls -A stores stores/roots
                """, in: directory)

            #expect(built.status == 0, "\(built)")
            #expect(built.stdout.hasSuffix("""
                stores:
                FORMAT
                android.txt
                notes.txt
                roots
                roots.index
                stores.md

                stores/roots:
                \(StoresBuilderSourcesTests.rootID("root-ca.pem")).pem

                """), "\(built)")
            // The index of the roots' names, as the openssl CLI gives them.
            let id = StoresBuilderSourcesTests.rootID("root-ca.pem")
            let hashes = try ShellPipeline.output("openssl x509 -in root-ca.pem -noout -subject_hash -issuer_hash")
            #expect(try Self.text("stores/roots.index", in: directory).hasSuffix(
                "\n\(id) \(hashes.replacingOccurrences(of: "\n", with: " "))\n"))
            #expect(try Self.text("stores/notes.txt", in: directory) == "my notes\n")
            #expect(try !Self.text("stores/android.txt", in: directory).contains("version 99"))
        }
    }
}
