import Foundation
import Testing
import TestSupport

/// End-to-end: `pinctl config export --to nsc` of an nsc app writes the app's own configuration back, strictly, and
/// `verify` judges every chain of certs/libraries/ by the export as by the original.
@Suite struct NSCExportCommandTests {
    static let at = ["--at", TestTime.nowText]
    static let root = ["--ca-file", LibraryCerts.path("root-ca.pem")]
    /// The configs Android reads (each `bad_` one is refused in a build the fixtures test).
    static let validConfigs = NSCFixtures.configNames.filter { !$0.hasPrefix("bad_") }
    /// Configs a debuggable build of the fixtures' folder refuses (a debug-only @raw resource).
    static let releaseOnly: Set = ["debug_release_skips.xml", "shape_debug_raw_elsewhere.xml"]

    /// The commonest real shape, a base-config and nothing else, had no domain-config for the portable model.
    @Test func aBaseConfigOnlyAppExportsStrictlyWithItsCleartextSetting() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: "apps:\n  - name: android\n    library: nsc\n"
                + "    config: \(NSCFixtures.config("shape_base_only.xml"))\n")
            let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "android", "--to",
                                                  "nsc"])
            #expect(exported.status == 0, "\(exported)")
            #expect(exported.stderr.isEmpty, "\(exported)")
            #expect(exported.stdout.contains("""
                  <base-config cleartextTrafficPermitted="true">
                    <trust-anchors>
                      <certificates src="system"/>
                    </trust-anchors>
                  </base-config>
                """), "\(exported)")
        }
    }

    /// The file's comments, Android lint's `tools:` attributes (with the root's `xmlns:tools`) and the elements Android
    /// skips (TrustKit-Android's `<trustkit-config>`, which that library reads from this file) are written back at
    /// their places, and an export of the export is the same file: they were dropped without a word (#19).
    @Test func commentsAndToolsAttributesAreWrittenBack() throws {
        try TemporaryDirectory.with { directory in
            let config = try directory.write("network_security_config.xml", text: """
                <?xml version="1.0" encoding="utf-8"?>
                <!-- Before the root. -->
                <network-security-config xmlns:tools="http://schemas.android.com/tools">
                    <!-- The API. -->
                    <domain-config tools:ignore="X">
                        <domain includeSubdomains="true">example.com</domain>
                        <pin-set>
                            <!-- leaf -->
                            <pin digest="SHA-256">lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=</pin>
                            <pin digest="SHA-256">oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc<!-- unpadded --></pin>
                        </pin-set>
                        <trust-anchors>
                            <certificates src="system" tools:ignore="Y"/><!-- the store -->
                        </trust-anchors>
                        <trustkit-config enforcePinning="true" disableDefaultReportUri="true"/>
                    </domain-config>
                    <debug-overrides tools:ignore="Z">
                        <!-- debug -->
                        <trust-anchors><certificates src="user"/></trust-anchors>
                    </debug-overrides>
                    <!-- end of file -->
                </network-security-config>
                """)
            let expected = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by pinctl config export. -->
                <!-- Before the root. -->
                <network-security-config xmlns:tools="http://schemas.android.com/tools">
                  <!-- The API. -->
                  <domain-config tools:ignore="X">
                    <domain includeSubdomains="true">example.com</domain>
                    <trust-anchors>
                      <certificates src="system" tools:ignore="Y"/>
                      <!-- the store -->
                    </trust-anchors>
                    <pin-set>
                      <!-- leaf -->
                      <pin digest="SHA-256">lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=</pin>
                      <!-- unpadded -->
                      <pin digest="SHA-256">oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc</pin>
                    </pin-set>
                    <trustkit-config enforcePinning="true" disableDefaultReportUri="true"/>
                  </domain-config>
                  <debug-overrides tools:ignore="Z">
                    <!-- debug -->
                    <trust-anchors>
                      <certificates src="user"/>
                    </trust-anchors>
                  </debug-overrides>
                  <!-- end of file -->
                </network-security-config>

                """
            var source = config
            for round in 1...2 {
                let file = try directory.write("pinctl.yaml", text: "apps:\n  - { name: android, library: nsc, "
                    + "config: \(source) }\n")
                let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "android",
                                                      "--to", "nsc"])
                #expect(exported.status == 0 && exported.stderr.isEmpty, "round \(round): \(exported)")
                #expect(exported.stdout == expected, "round \(round): \(exported)")
                source = try directory.write("exported.xml", text: exported.stdout)
            }
        }
    }

    /// A namespace declared on an inner element goes with it: the `tools:` attribute was written without its
    /// `xmlns:tools`, and the export did not parse.
    @Test func aNamespaceDeclaredInsideIsWrittenWhereItWas() throws {
        try TemporaryDirectory.with { directory in
            let config = try directory.write("network_security_config.xml", text: """
                <network-security-config>
                    <base-config xmlns:tools="http://schemas.android.com/tools" tools:ignore="X"/>
                </network-security-config>
                """)
            let file = try directory.write("pinctl.yaml", text: "apps:\n  - { name: a, library: nsc, config: \(config) }\n")
            let exported = try PinctlProcess.run(["config", "export", "--config", file, "--app", "a", "--to", "nsc"])
            #expect(exported.status == 0, "\(exported)")
            #expect(exported.stdout.contains(
                "<base-config xmlns:tools=\"http://schemas.android.com/tools\" tools:ignore=\"X\"/>"), "\(exported)")
            let again = try directory.write("again.xml", text: exported.stdout)
            let reread = try PinctlProcess.run(["config", "import", again, "--library", "nsc"])
            #expect(reread.status == 0, "\(reread)")
        }
    }

    @Test func everyValidConfigExportsStrictlyAndKeepsEveryVerdict() throws {
        try TemporaryDirectory.with { directory in
            let xml = try directory.makeDirectory("res/xml")
            try FileManager.default.createSymbolicLink(atPath: directory.path("res/raw"),
                                                       withDestinationPath: NSCFixtures.resources + "/raw")
            let hosts = "    hosts: [api.example.com, www.example.com, uploads.api.example.com]\n"
            func app(_ name: String, _ config: String, debuggable: Bool) -> String {
                "  - name: \(name)\n    library: nsc\n    config: \(config)\n" + hosts
                    + (debuggable ? "    debuggable: true\n" : "")
            }
            let originals = try directory.write("originals.yaml", text: "apps:\n" + Self.validConfigs.map {
                app($0, NSCFixtures.config($0), debuggable: false)
            }.joined())
            for name in Self.validConfigs {
                let exported = try PinctlProcess.run(["config", "export", "--config", originals, "--app", name,
                                                      "--to", "nsc", "--out", xml + "/" + name])
                #expect(exported.status == 0 && exported.stderr.isEmpty, "\(name): \(exported)")
            }
            var apps: [String] = []
            for name in Self.validConfigs {
                for debuggable in Self.releaseOnly.contains(name) ? [false] : [false, true] {
                    let build = debuggable ? "debuggable" : "release"
                    apps.append(app("original-\(name)-\(build)", NSCFixtures.config(name), debuggable: debuggable))
                    apps.append(app("exported-\(name)-\(build)", xml + "/" + name, debuggable: debuggable))
                }
            }
            let both = try directory.write("both.yaml", text: "apps:\n" + apps.joined())
            let chains = ["leaf-chain.pem", "leaf-other-intermediate-chain.pem", "leaf-other-root-chain.pem",
                          "wildcard-leaf-chain.pem", "leaf-under-expired-root.pem"]
            for chain in chains {
                for host in ["api.example.com", "www.example.com", "uploads.api.example.com"] {
                    let result = try PinctlProcess.run(["verify", "--config", both, "--chain", LibraryCerts.path(chain),
                                                        "--host", host, "--format", "json"] + Self.root + Self.at)
                    #expect(result.status != 2, "\(chain) \(host): \(result)")
                    var verdicts: [String: String] = [:]
                    for object in try LiveRun.objects(result.stdout) {
                        let trust = (object["trust"] as? [String: Any])?["basis"] as? String
                        verdicts[object["app"] as? String ?? ""] = "\(object["verdict"] ?? "") \(trust ?? "") "
                            + (LiveRun.reasonCode(object) ?? "")
                    }
                    #expect(verdicts.count == apps.count, "\(chain) \(host): one verdict per app")
                    for (app, verdict) in verdicts where app.hasPrefix("original-") {
                        let exported = "exported-" + app.dropFirst("original-".count)
                        let got = verdicts[exported] ?? "none"
                        #expect(verdicts[exported] == verdict, "\(chain) \(host) \(app): \(verdict), exported \(got)")
                    }
                }
            }
        }
    }
}
