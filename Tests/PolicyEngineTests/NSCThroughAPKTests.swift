import Foundation
import PolicyEngine
import TestSupport
import Testing

/// The NSC truth table through the build path (#35, DESIGN §14): every fixture config compiled into one APK by
/// Debian's Android tools (scripts/make-apk.sh: apktool and aapt, zipalign, apksigner), read back from the APK's
/// binary XML and resource table, gives the verdict the table writes by hand for the XML itself.
@Suite struct NSCThroughAPKTests {
    /// Configs that name a `@raw/` resource the fixtures lack, in a part of the file a release build skips: aapt
    /// refuses to build such an app at all ("No resource found that matches the given name"), so no APK holds them.
    static let uncompilable = ["debug_release_skips.xml", "shape_debug_raw_elsewhere.xml", "unknown_elements.xml"]

    static func compiled(_ name: String) -> Bool { !name.hasPrefix("bad_") && !uncompilable.contains(name) }

    /// An APK of the fixtures' `res/` (the configs aapt compiles: not the `bad_` ones, some of which are not XML).
    static func fixturesAPK(in directory: TemporaryDirectory) throws -> String {
        let tree = directory.path("tree")
        try FileManager.default.createDirectory(atPath: tree + "/res/xml", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: NSCFixtures.resources + "/raw", toPath: tree + "/res/raw")
        for name in NSCFixtures.configNames where compiled(name) {
            try FileManager.default.copyItem(atPath: NSCFixtures.resources + "/xml/" + name,
                                             toPath: tree + "/res/xml/" + name)
        }
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.fixtures">
                <application android:networkSecurityConfig="@xml/network_security_config"/>
            </manifest>
            """.write(toFile: tree + "/AndroidManifest.xml", atomically: true, encoding: .utf8)
        let apk = directory.path("fixtures.apk")
        let made = try Subprocess.run(Certs.root + "/scripts/make-apk.sh", [tree, apk], in: Certs.root, timeout: 120)
        try #require(made.status == 0, "\(made)")
        return apk
    }

    @Test func everyRowOfTheTruthTableHoldsThroughTheAPK() throws {
        try TemporaryDirectory.with { directory in
            let apk = try Self.fixturesAPK(in: directory)
            let rows = nscTruthTable.filter { Self.compiled($0.config) }
            #expect(rows.count > 50)
            for row in rows {
                let debuggable = row.build == .debuggable
                let name = String(row.config.dropLast(".xml".count))
                let config = try NSCXMLReader.read(apk: apk, resource: name, debuggable: debuggable)
                let context = EvaluationContext(platformAnchors: row.store.trustStore,
                                                time: try Timestamp.parse(row.time).get())
                let evaluation = PolicyEvaluator(context: context).evaluate(
                    NSCPolicy(config: config, debuggable: debuggable), presented: row.chain.certificates,
                    domain: row.host)
                expectVerdict(evaluation, is: row.expected)
                // Pins and anchors are named by the archive's entries.
                #expect(config.path == apk + "!res/xml/" + row.config, "\(row)")
            }
        }
    }
}
