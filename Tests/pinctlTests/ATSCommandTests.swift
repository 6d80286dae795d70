import Foundation
import Testing
import TestSupport

/// `--library ats` (App Transport Security's NSPinnedDomains) through the built pinctl: its flags, its Info.plist
/// imported and exported. Pins are openssl's (certs/libraries/spki-pins.txt).
@Suite struct ATSCommandTests {
    static let leafPin = LibraryCerts.pin(of: "leaf.pem")
    static let intermediatePin = LibraryCerts.pin(of: "intermediate-ca.pem")

    func verify(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", "libraries/leaf-chain.pem", "--ca-file", "libraries/root-ca.pem",
                               "--at", TestTime.nowText, "--library", "ats"] + arguments)
    }

    /// `--pin` fills NSPinnedCAIdentities unless `--ats-identities leaf` says otherwise; the leaf's key is never
    /// compared with CA identities, and the refusal says which certificate it is.
    @Test func atsIdentitiesChoosesTheListThePinsFill() throws {
        let asCA = try verify(["--host", "api.example.com", "--pin", Self.leafPin])
        #expect(asCA.status == 1, "\(asCA)")
        #expect(asCA.stdout.contains("which is the key of certificate #0, never compared with NSPinnedCAIdentities "
            + "of api.example.com"), "\(asCA)")
        let asLeaf = try verify(["--host", "api.example.com", "--pin", Self.leafPin, "--ats-identities", "leaf"])
        #expect(asLeaf.status == 0, "\(asLeaf)")
        #expect(asLeaf.stdout.contains("matched certificate #0"), "\(asLeaf)")
        let intermediate = try verify(["--host", "api.example.com", "--pin", Self.intermediatePin])
        #expect(intermediate.status == 0, "\(intermediate)")
        #expect(intermediate.stdout.contains("matched certificate #1"), "\(intermediate)")
    }

    /// `--ats-domain` names the entry; `--include-subdomains` makes it cover one label more.
    @Test func includeSubdomainsCoversOneLabelBelowTheDomain() throws {
        let wrong = "sha256/QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
        let exact = try verify(["--host", "api.example.com", "--ats-domain", "example.com", "--pin", wrong])
        #expect(exact.status == 0, "\(exact)")
        #expect(exact.stdout.contains("no NSPinnedDomains entry pins api.example.com"), "\(exact)")
        let subdomains = try verify(["--host", "api.example.com", "--ats-domain", "example.com", "--pin", wrong,
                                     "--include-subdomains"])
        #expect(subdomains.status == 1, "\(subdomains)")
        #expect(subdomains.stdout.contains("NSPinnedCAIdentities of example.com holds 1 key(s)"), "\(subdomains)")
    }

    @Test func aSharedFlagNamesBothLibrariesWhenGivenToAnother() throws {
        let result = try PinctlProcess.run(["verify", "--chain", "libraries/leaf-chain.pem", "--host", "example.com",
                                            "--library", "okhttp", "--include-subdomains"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--include-subdomains is an option of --library trustkit or ats, not of okhttp"),
                "\(result)")
        let wrongKind = try verify(["--host", "api.example.com", "--pin", Self.leafPin, "--ats-identities", "root"])
        #expect(wrongKind.status == 2, "\(wrongKind)")
    }

    /// A binary Info.plist is read, and an app whose identities are exactly base64 of 32 bytes is imported inline.
    @Test func aBinaryInfoPlistIsImportedInline() throws {
        try TemporaryDirectory.with { directory in
            let bare = String(Self.intermediatePin.dropFirst("sha256/".count))
            let plist = try directory.write("Info.plist", bytes: ATSPlist.binary([
                "example.com": ["NSIncludesSubdomains": true, "NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": bare]]],
            ], otherKeys: ["CFBundleIdentifier": "com.example.app"]))
            let result = try PinctlProcess.run(["config", "import", plist, "--library", "ats", "--name", "ios"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                  - name: ios
                    library: ats
                    policy:
                      domains:
                        example.com:
                          includeSubdomains: true
                          caIdentities: [\(Self.intermediatePin)]

                """, "\(result)")
            // The entry judges as the Info.plist it came from: the intermediate's key, one label below example.com.
            let inline = try directory.write("inline.yaml", text: "apps:\n" + result.stdout)
            let file = try directory.write("file.yaml",
                                           text: "apps:\n  - name: ios\n    library: ats\n    config: \(plist)\n")
            for config in [inline, file] {
                let judged = try PinctlProcess.run(["verify", "--config", config, "--chain", "libraries/leaf-chain.pem",
                                                    "--ca-file", "libraries/root-ca.pem", "--host", "api.example.com",
                                                    "--at", TestTime.nowText])
                #expect(judged.status == 0, "\(judged)")
                #expect(judged.stdout.contains("matched certificate #1"), "\(judged)")
            }
        }
    }

    /// An ats app read from its Info.plist is exported as that Info.plist, its other keys kept; another library's
    /// app is exported only with --lossy, saying what ATS cannot express.
    @Test func exportKeepsTheInfoPlistsOtherKeysAndNamesLosses() throws {
        try TemporaryDirectory.with { directory in
            let bare = String(Self.intermediatePin.dropFirst("sha256/".count))
            _ = try directory.write("Info.plist", bytes: ATSPlist.binary([
                "example.com": ["NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": bare]]],
            ], otherKeys: ["CFBundleIdentifier": "com.example.app", "UIRequiredDeviceCapabilities": ["arm64"]]))
            let config = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: ios
                    library: ats
                    config: Info.plist
                  - name: android
                    library: okhttp
                    policy: { pins: { "*.example.com": [\(Self.intermediatePin)] } }

                """)
            let own = try PinctlProcess.run(["config", "export", "--config", config, "--app", "ios", "--to", "ats"])
            #expect(own.status == 0, "\(own)")
            #expect(own.stdout.contains("<key>CFBundleIdentifier</key>"), "\(own)")
            #expect(own.stdout.contains("<string>arm64</string>"), "\(own)")
            #expect(own.stdout.contains("<string>\(bare)</string>"), "\(own)")
            let refused = try PinctlProcess.run(["config", "export", "--config", config, "--app", "android",
                                                 "--to", "ats"])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("example.com itself left unpinned"), "\(refused)")
            let lossy = try PinctlProcess.run(["config", "export", "--config", config, "--app", "android",
                                               "--to", "ats", "--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            #expect(lossy.stdout.contains("<key>NSIncludesSubdomains</key>"), "\(lossy)")
            #expect(lossy.stdout.contains("Not expressible in NSPinnedDomains, dropped:"), "\(lossy)")
        }
    }

    /// Tests/Fixtures/ats/Info.plist pins api.example.com's leaf, and example.com and one label below by CA keys:
    /// api.example.com needs both (its entries are pooled), which OkHttp, where any pin of any pattern matches, cannot
    /// say. Written with --lossy, each rule is a pattern line with its pins, and the losses head the file.
    @Test func anATSAppExportedToOkHttpNamesWhatOkHttpLoosens() throws {
        try TemporaryDirectory.with { directory in
            let config = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: ios
                    library: ats
                    config: \(Certs.root)/Tests/Fixtures/ats/Info.plist

                """)
            let export = ["config", "export", "--config", config, "--app", "ios", "--to", "okhttp", "--format", "text"]
            let refused = try PinctlProcess.run(export)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("a host pinned by api.example.com's leaf identities and example.com's CA "
                + "identities needs a match of each, not either"), "\(refused)")
            let lossy = try PinctlProcess.run(export + ["--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            let lines = lossy.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: " ").joined(separator: " ") }
            let (leaf, intermediate, root) = (Self.leafPin, Self.intermediatePin, LibraryCerts.pin(of: "root-ca.pem"))
            #expect(lines == ["api.example.com \(leaf)", "example.com \(intermediate) \(root)",
                              "*.example.com \(intermediate) \(root)"], "\(lossy)")
        }
    }
}
