import Foundation
import Testing
import TestSupport

/// `config import App.ipa` (#35, DESIGN §14) through the built pinctl, on archives scripts/make_ipa.py builds: a
/// binary Info.plist, a Mach-O executable (encrypted or not, thin or universal), bundled certificates.
@Suite struct IPAImportTests {
    static let pin = "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="
    static let backup = "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="
    /// An Info.plist configuring TrustKit and ATS, as JSON for the script.
    static let info = """
        {"NSAppTransportSecurity": {"NSPinnedDomains": {"example.com": {"NSIncludesSubdomains": true,
          "NSPinnedCAIdentities": [{"SPKI-SHA256-BASE64": "\(pin)"}]}}},
         "TSKConfiguration": {"TSKPinnedDomains": {"api.example.com": {"TSKPublicKeyHashes": ["\(pin)", "\(backup)"]}}}}
        """

    /// Builds `name`.ipa in `directory` with make_ipa.py's `arguments`.
    static func ipa(_ name: String, in directory: TemporaryDirectory, _ arguments: [String] = []) throws -> String {
        let info = try directory.write("info.json", bytes: Array(Self.info.utf8))
        let path = directory.path(name + ".ipa")
        let made = try Subprocess.run(Certs.root + "/scripts/make_ipa.py",
                                      [path, "--name", "Demo", "--info", info] + arguments, in: Certs.root)
        try #require(made.status == 0, "\(made)")
        return path
    }

    func importing(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import"] + arguments)
    }

    @Test func anIPAGivesAnEntryPerLibraryWithItsVersionAndPlatforms() throws {
        try TemporaryDirectory.with { directory in
            let path = try Self.ipa("Demo", in: directory, ["--binary-plist", "--version", "2.1.0",
                                                            "--minimum-os", "13.0"])
            let result = try importing([path, "--name", "ios"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                  - name: ios-trustkit
                    versions: [2.1.0]
                    library: trustkit
                    platforms: [ios@13.0-]
                    policy:
                      domains:
                        api.example.com:
                          publicKeyHashes: [\(Self.pin), \(Self.backup)]
                  - name: ios-ats
                    versions: [2.1.0]
                    library: ats
                    platforms: [ios@13.0-]
                    policy:
                      domains:
                        example.com:
                          includeSubdomains: true
                          caIdentities: [sha256/\(Self.pin)]

                """, "\(result)")

            #expect(result.stderr.contains("Demo.ipa: pins set in code (Alamofire's evaluators or TrustKit configured "
                + "in code) are not read from a build yet"), "\(result)")

            // --library keeps one, named as given.
            let one = try importing([path, "--library", "ats", "--name", "ios"])
            #expect(one.status == 0, "\(one)")
            #expect(one.stdout.hasPrefix("  - name: ios\n    versions: [2.1.0]\n    library: ats\n"), "\(one)")
            #expect(!one.stdout.contains("trustkit"), "\(one)")
        }
    }

    /// The archive's Info.plist imports as the same plist given alone does: the same policy, whichever the source.
    @Test func anIPAImportsAsItsInfoPlistDoes() throws {
        try TemporaryDirectory.with { directory in
            let path = try Self.ipa("Demo", in: directory, ["--binary-plist"])
            let plist = directory.path("Info.plist")
            let extracted = try Subprocess.run("/usr/bin/env", ["python3", "-c", """
                import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('Payload/Demo.app/Info.plist'))
                """, path, plist], in: directory.path)
            try #require(extracted.status == 0, "\(extracted)")
            for library in ["trustkit", "ats"] {
                let fromIPA = try importing([path, "--library", library, "--name", "x"])
                let fromPlist = try importing([plist, "--library", library, "--name", "x"])
                #expect(fromIPA.status == 0 && fromPlist.status == 0, "\(fromIPA) \(fromPlist)")
                let policy = { (text: String) in text.split(separator: "\n").drop { !$0.contains("policy:") } }
                #expect(Array(policy(fromIPA.stdout)) == Array(policy(fromPlist.stdout)), "\(fromIPA) \(fromPlist)")
                #expect(!policy(fromIPA.stdout).isEmpty)
            }
        }
    }

    /// An App Store download is refused, thin or universal, naming the executable and the slice; so is an IPA whose
    /// executable is missing or no Mach-O: whether it is encrypted cannot be told.
    @Test func anEncryptedOrUnreadableExecutableIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let thin = try importing([try Self.ipa("thin", in: directory, ["--encrypted"])])
            #expect(thin.status == 2, "\(thin)")
            #expect(thin.stderr.contains("thin.ipa!Payload/Demo.app/Demo: is encrypted (arm64 slice, cryptid set)"),
                    "\(thin)")
            #expect(thin.stdout.isEmpty)
            // The x86_64 slice is not encrypted, the arm64 one is.
            let fat = try importing([try Self.ipa("fat", in: directory, ["--encrypted", "--fat"])])
            #expect(fat.status == 2, "\(fat)")
            #expect(fat.stderr.contains("fat.ipa!Payload/Demo.app/Demo: is encrypted (arm64 slice"), "\(fat)")
            let clear = try importing([try Self.ipa("clear", in: directory, ["--fat"])])
            #expect(clear.status == 0, "\(clear)")

            let missing = try importing([try Self.ipa("missing", in: directory, ["--no-executable"])])
            #expect(missing.status == 2, "\(missing)")
            #expect(missing.stderr.contains("missing.ipa!Payload/Demo.app/Demo: is missing, though the Info.plist "
                + "names it the main executable"), "\(missing)")
            let text = try directory.write("script.sh", bytes: Array("#!/bin/sh\n".utf8))
            let notMachO = try importing([try Self.ipa("script", in: directory, ["--executable-bytes", text])])
            #expect(notMachO.status == 2, "\(notMachO)")
            #expect(notMachO.stderr.contains("script.ipa!Payload/Demo.app/Demo: shorter than a Mach-O header")
                || notMachO.stderr.contains("not a Mach-O"), "\(notMachO)")
        }
    }

    /// Certificates in the bundle are named, never dropped: AFNetworking and Alamofire load them, and nothing says
    /// for which hosts. Keeping another library imports that one alone.
    @Test func bundledCertificatesAreNamedNotDropped() throws {
        try TemporaryDirectory.with { directory in
            let path = try Self.ipa("certs", in: directory, ["--resource", Certs.path("root-ca.der")])
            let result = try importing([path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("certs.ipa!Payload/Demo.app/root-ca.der: certificates in the app's bundle, "
                + "which AFNetworking's certificatesInBundle: and Alamofire's Bundle.af.certificates load; nothing in the build "
                + "says which hosts they guard: give them with --host"), "\(result)")
            #expect(result.stdout.isEmpty)
            let kept = try importing([path, "--library", "trustkit"])
            #expect(kept.status == 0, "\(kept)")
            #expect(kept.stdout.contains("library: trustkit"), "\(kept)")
        }
    }

    /// AFNetworking embedded as a framework loads its default certificates from its own bundle, not the app's
    /// (`bundleForClass:`): where the two hold different `.cer` files the import stops at the framework, as the app's
    /// code decides; where they agree, or no framework is embedded, the app's files are read. Alamofire reads
    /// `Bundle.main` whatever is embedded.
    @Test func anEmbeddedAFNetworkingWhoseBundleDiffersIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let cer = try directory.write("api.cer", bytes: Array(try Data(contentsOf: URL(fileURLWithPath:
                Certs.path("root-ca.der")))))
            let host = ["--host", "api.example.com"]
            let apart = try Self.ipa("apart", in: directory, ["--resource", cer, "--framework", "AFNetworking"])
            let refused = try importing([apart, "--library", "afnetworking"] + host)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("apart.ipa!Payload/Demo.app/Frameworks/AFNetworking.framework/: "
                + "AFNetworking is embedded as a framework: policyWithPinningMode: pins the .cer files of its own bundle "
                + "(0 there), certificatesInBundle:[NSBundle mainBundle] those of the app's (1)"), "\(refused)")
            let alamofire = try importing([apart, "--library", "alamofire"] + host)
            #expect(alamofire.status == 0, "\(alamofire)")

            let inFramework = try Self.ipa("in-framework", in: directory,
                                           ["--framework-resource", "AFNetworking", cer])
            let framework = try importing([inFramework, "--library", "afnetworking"] + host)
            #expect(framework.status == 2, "\(framework)")
            #expect(framework.stderr.contains("(1 there), certificatesInBundle:[NSBundle mainBundle] those of the "
                + "app's (0)"), "\(framework)")

            let both = try Self.ipa("both", in: directory, ["--resource", cer, "--framework-resource", "AFNetworking", cer])
            let agreed = try importing([both, "--library", "afnetworking", "--name", "afn"] + host)
            #expect(agreed.status == 0, "\(agreed)")
            #expect(agreed.stdout.contains("library: afnetworking"), "\(agreed)")
        }
    }

    /// libarchive is opened when an archive is first read: one that cannot be is exit 2 naming it.
    @Test func anArchiveNeedsLibarchiveOnlyWhenRead() throws {
        try TemporaryDirectory.with { directory in
            let path = try Self.ipa("Demo", in: directory)
            let loaded = try PinctlProcess.run(["config", "import", path], environment: ["LD_DEBUG": "libs"])
            #expect(loaded.status == 0, "\(loaded)")
            #expect(loaded.stderr.contains("find library=libarchive.so.13"), "\(loaded.stderr.prefix(400))")
            let broken = try TemporaryDirectory.with { libraries in
                _ = try libraries.write("libarchive.so.13", text: "")
                return try PinctlProcess.run(["config", "import", path], environment: ["LD_LIBRARY_PATH": libraries.path])
            }
            #expect(broken.status == 2 && broken.stdout.isEmpty, "\(broken)")
            #expect(broken.stderr.contains("Demo.ipa: cannot load libarchive.so.13"), "\(broken)")
        }
    }

    /// What is no IPA, or one that inflates past the bounds, is refused with the archive (and entry) at fault.
    @Test func aDamagedOrBombedArchiveIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let garbage = try directory.write("garbage.ipa", bytes: Array("not a zip\n".utf8))
            let notZip = try importing([garbage])
            #expect(notZip.status == 2, "\(notZip)")
            #expect(notZip.stderr.contains("garbage.ipa: not a zip archive"), "\(notZip)")

            // 65 MiB of zeros deflate to about 65 KiB; an entry may inflate to 64 MiB.
            let bomb = directory.path("bomb.ipa")
            let made = try Subprocess.run("/usr/bin/env", ["python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                    z.writestr('Payload/A.app/Info.plist', bytes(65 << 20))
                """, bomb], in: directory.path)
            try #require(made.status == 0, "\(made)")
            let bombed = try importing([bomb])
            #expect(bombed.status == 2, "\(bombed)")
            #expect(bombed.stderr.contains("bomb.ipa!Payload/A.app/Info.plist: inflates to more than 67108864 bytes"),
                    "\(bombed)")
        }
    }
}
