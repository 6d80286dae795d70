import Foundation
import Testing
import TestSupport

/// DESIGN §8 for Android's XML and `.cer` bundles: import prints an app entry that loads, export writes what the
/// app ships, import(export(x)) gives x back, and nothing is overwritten or silently lost.
@Suite struct ConfigImportExportTests {
    static let at = ["--at", TestTime.nowText]
    static let root = ["--ca-file", LibraryCerts.path("root-ca.pem")]

    /// A bundle as an iOS app ships it, made with the openssl CLI: two DER `.cer` files, a DER `.CER` (Alamofire
    /// loads it, AFNetworking does not), a PEM file and a garbage `.cer` (both libraries skip them).
    func withBundle(_ body: (TemporaryDirectory, String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            let bundle = try directory.makeDirectory("Resources")
            for (name, file) in [("intermediate.cer", "intermediate-ca.pem"), ("root.CER", "root-ca.pem"),
                                 ("leaf.cer", "leaf.pem")] {
                try OpenSSLCLI.run(["x509", "-in", LibraryCerts.path(file), "-outform", "der", "-out", bundle + "/" + name],
                                   in: directory.path)
            }
            try directory.write("Resources/other.pem", bytes: Certs.bytes("libraries/other-root-ca.pem"))
            try directory.write("Resources/broken.cer", text: "not a certificate")
            try body(directory, bundle)
        }
    }

    /// Appends an import's entry to `apps:` and checks the chain with it.
    func verify(entry: String, in directory: TemporaryDirectory, chain: String, host: String = "api.example.com")
        throws -> PinctlProcess.Result
    {
        let file = try directory.write("pinctl.yaml", text: "apps:\n" + entry)
        return try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path(chain), "--host", host,
                                      "--format", "json"] + Self.root + Self.at)
    }

    @Test func anAndroidConfigImportsAsAnEntryThatJudgesAsTheFileDoes() throws {
        try TemporaryDirectory.with { directory in
            let config = NSCFixtures.config("network_security_config.xml")
            let imported = try PinctlProcess.run(["config", "import", config, "--library", "nsc", "--name", "android",
                                                  "--verbose"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout == "  - name: android\n    library: nsc\n    config: \(config)\n", "\(imported)")
            for chain in ["leaf-chain.pem", "leaf-other-intermediate-chain.pem"] {
                let viaFile = try verify(entry: imported.stdout, in: directory, chain: chain)
                let direct = try PinctlProcess.run(["verify", "--library", "nsc", "--nsc-config", config, "--chain",
                                                    LibraryCerts.path(chain), "--host", "api.example.com", "--format", "json"]
                                                   + Self.root + Self.at)
                #expect(viaFile.status == direct.status, "\(chain): \(viaFile) vs \(direct)")
                #expect(try LiveRun.object(viaFile.stdout)["verdict"] as? String
                        == LiveRun.object(direct.stdout)["verdict"] as? String)
            }
        }
    }

    @Test func verboseImportNamesWhatAndroidSkips() throws {
        let imported = try PinctlProcess.run(["config", "import", NSCFixtures.config("unknown_elements.xml"),
                                              "--library", "nsc", "--verbose"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stderr.contains("is not an element Android reads: skipped"), "\(imported)")
    }

    @Test func anAndroidAppExportsToXMLThatReadsBackToTheSameRules() throws {
        try TemporaryDirectory.with { directory in
            let xml = """
                <network-security-config>
                  <domain-config>
                    <domain includeSubdomains="true">api.example.com</domain>
                    <pin-set expiration="2027-06-30">
                      <pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf.pem"))</pin>
                      <pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf-rekeyed.pem"))</pin>
                    </pin-set>
                  </domain-config>
                  <domain-config>
                    <domain>static.example.com</domain>
                    <pin-set/>
                  </domain-config>
                </network-security-config>
                """
            try directory.write("nsc.xml", text: xml)
            let file = try directory.write("pinctl.yaml", text: "apps:\n  - name: android\n    library: nsc\n    config: nsc.xml\n")
            let out = directory.path("exported.xml")
            let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "android", "--to", "nsc",
                                                  "--out", out])
            #expect(exported.status == 0, "\(exported)")
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(written.contains("<domain includeSubdomains=\"true\">api.example.com</domain>"), "\(written)")
            #expect(written.contains("<pin-set expiration=\"2027-06-30\">"), "\(written)")
            #expect(written.contains(LibraryCerts.bareBase64(of: "leaf-rekeyed.pem")), "\(written)")
            #expect(written.contains("<domain includeSubdomains=\"false\">static.example.com</domain>"), "\(written)")
            // Read back, it judges every chain as the original does.
            let again = try directory.write("again.yaml", text: "apps:\n  - name: android\n    library: nsc\n    config: exported.xml\n")
            for chain in ["leaf-chain.pem", "leaf-rekeyed-chain.pem", "leaf-other-intermediate-chain.pem"] {
                for host in ["api.example.com", "www.api.example.com"] {
                    let original = try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path(chain),
                                                          "--host", host] + Self.root + Self.at)
                    let roundTrip = try PinctlProcess.run(["verify", "--config", again, "--chain", LibraryCerts.path(chain),
                                                           "--host", host] + Self.root + Self.at)
                    #expect(original.status == roundTrip.status, "\(chain) \(host): \(original) vs \(roundTrip)")
                }
            }
        }
    }

    @Test func aBundleImportsWithWhatEachLibraryLoadsAndNamesWhatItSkips() throws {
        try withBundle { directory, bundle in
            let afn = try PinctlProcess.run(["config", "import", bundle, "--library", "afnetworking", "--name", "ios",
                                             "--host", "api.example.com", "--verbose"])
            #expect(afn.status == 0, "\(afn)")
            #expect(afn.stdout.contains("config: \(bundle)") && afn.stdout.contains("mode: publickey"), "\(afn)")
            #expect(afn.stderr.contains("root.CER: AFNetworking does not load this file"), "\(afn)")
            #expect(afn.stderr.contains("other.pem: AFNetworking does not load this file"), "\(afn)")
            #expect(afn.stderr.contains("broken.cer: not one DER certificate, so AFNetworking skips it"), "\(afn)")
            // AFNetworking pins intermediate and leaf, not the root in root.CER: a chain from the other intermediate
            // (same root) is rejected; Alamofire loads root.CER and trusts it.
            let rejected = try verify(entry: afn.stdout, in: directory, chain: "leaf-other-intermediate-chain.pem")
            #expect(rejected.status == 1, "\(rejected)")
            let alamofire = try PinctlProcess.run(["config", "import", bundle, "--library", "alamofire", "--name", "ios",
                                                   "--host", "api.example.com", "--public-keys"])
            #expect(alamofire.status == 0, "\(alamofire)")
            let trusted = try verify(entry: alamofire.stdout, in: directory, chain: "leaf-other-intermediate-chain.pem")
            #expect(trusted.status == 0, "\(trusted)")
            let noHost = try PinctlProcess.run(["config", "import", bundle, "--library", "alamofire"])
            #expect(noHost.status == 2 && noHost.stderr.contains("list the hosts"), "\(noHost)")
        }
    }

    @Test func certificatePinsExportAsABundleOfTheSameDERFiles() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: ios
                    library: afnetworking
                    hosts: [api.example.com]
                    policy: { mode: certificate, pins: [\(LibraryCerts.path("intermediate-ca.pem")), \(LibraryCerts.path("root-ca.pem"))] }
                """)
            let out = directory.path("Bundle")
            let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "ios", "--to", "alamofire",
                                                  "--out", out])
            #expect(exported.status == 0, "\(exported)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == ["00-libraries-intermediate-ca.cer", "01-libraries-root-ca.cer"])
            let der = try Data(contentsOf: URL(fileURLWithPath: out + "/00-libraries-intermediate-ca.cer"))
            #expect([UInt8](der) == LibraryCerts.one("intermediate-ca.pem").derBytes)
            // import(export(x)): the bundle read back pins the same certificates.
            let imported = try PinctlProcess.run(["config", "import", out, "--library", "afnetworking", "--mode", "certificate",
                                                  "--host", "api.example.com", "--name", "ios"])
            #expect(imported.status == 0, "\(imported)")
            for (chain, status) in [("leaf-chain.pem", 0), ("leaf-other-root-chain.pem", 1)] {
                #expect(try verify(entry: imported.stdout, in: directory, chain: chain).status == status, "\(chain)")
            }
            // A second export does not overwrite without --force, and changes nothing.
            let again = try PinctlProcess.run(["config", "export", "--config", file, "--app", "ios", "--to", "alamofire",
                                               "--out", out])
            #expect(again.status == 2 && again.stderr.contains("use --force"), "\(again)")
        }
    }

    /// A bundle exported again with fewer certificates keeps none of the earlier ones: the app would load every `.cer`
    /// left in it as a pin (#17).
    @Test func aForcedExportOfFewerCertificatesLeavesNoneOfTheEarlierSet() throws {
        try TemporaryDirectory.with { directory in
            func app(_ pins: [String]) -> String {
                "apps:\n  - name: ios\n    library: afnetworking\n    hosts: [api.example.com]\n"
                    + "    policy: { mode: certificate, pins: [\(pins.map(LibraryCerts.path).joined(separator: ", "))] }\n"
            }
            let out = directory.path("Bundle")
            let both = try directory.write("both.yaml", text: app(["intermediate-ca.pem", "root-ca.pem"]))
            #expect(try PinctlProcess.run(["config", "export", "--config", both, "--app", "ios", "--to", "alamofire",
                                           "--out", out]).status == 0)
            try directory.write("Bundle/README.txt", text: "mine\n")
            let rootOnly = try directory.write("root.yaml", text: app(["root-ca.pem"]))
            let forced = try PinctlProcess.run(["config", "export", "--config", rootOnly, "--app", "ios", "--to",
                                                "alamofire", "--out", out, "--force"])
            #expect(forced.status == 0, "\(forced)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == ["00-libraries-root-ca.cer", "README.txt"])
        }
    }

    @Test func whatATargetCannotExpressIsRefusedUnlessLossyAndThenSaid() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: sdk
                    library: okhttp
                    policy: { pins: { "*.example.com": [\(LibraryCerts.pin(of: "leaf.pem"))] } }
                  - name: hashes
                    library: afnetworking
                    hosts: [api.example.com]
                    policy: { mode: publickey, pins: [\(LibraryCerts.pin(of: "leaf.pem"))] }
                """)
            let refused = try PinctlProcess.run(["config", "export", "--config", file, "--app", "sdk", "--to", "nsc"])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("nsc cannot express what sdk holds: *.example.com (exactly one more label)"),
                    "\(refused)")
            #expect(refused.stdout.isEmpty)
            let lossy = try PinctlProcess.run(["config", "export", "--config", file, "--app", "sdk", "--to", "nsc", "--lossy"])
            #expect(lossy.status == 0, "\(lossy)")
            #expect(lossy.stdout.contains("<!-- Not expressible here, dropped: *.example.com"), "\(lossy)")
            let hashes = try PinctlProcess.run(["config", "export", "--config", file, "--app", "hashes", "--to",
                                                "afnetworking", "--out", directory.path("b")])
            #expect(hashes.status == 2 && hashes.stderr.contains("a .cer bundle holds certificates, not hashes"), "\(hashes)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("b")))
        }
    }

    @Test func anExistingOutputFileIsReplacedOnlyWithForce() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: "apps:\n  - name: android\n    library: nsc\n    config: \(NSCFixtures.config("nested.xml"))\n")
            let out = try directory.write("nsc.xml", text: "mine\n")
            let refused = try PinctlProcess.run(["config", "export", "--config", file, "--app", "android", "--to", "nsc",
                                                 "--out", out, "--lossy"])
            #expect(refused.status == 2 && refused.stderr.contains("exists; nothing was written"), "\(refused)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "mine\n")
            let forced = try PinctlProcess.run(["config", "export", "--config", file, "--app", "android", "--to", "nsc",
                                                "--out", out, "--lossy", "--force"])
            #expect(forced.status == 0, "\(forced)")
            #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("<?xml"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["nsc.xml", "pinctl.yaml"])
        }
    }
}

extension ConfigImportExportTests {
    @Test func aLossyExportOfAPunycodeNameStillReadsAsXML() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: sdk
                    library: okhttp
                    policy: { pins: { "*.xn--bcher-kva.com": [\(LibraryCerts.pin(of: "leaf.pem")), \(LibraryCerts.pin(of: "root-ca.pem"))] } }
                """)
            let out = directory.path("nsc.xml")
            let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "sdk", "--to", "nsc",
                                                  "--lossy", "--out", out])
            #expect(exported.status == 0, "\(exported)")
            let imported = try PinctlProcess.run(["config", "import", out, "--library", "nsc"])
            #expect(imported.status == 0, "the dropped name in a comment keeps the XML readable: \(imported)")
        }
    }
}
