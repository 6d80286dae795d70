import Foundation
import Testing
import TestSupport

/// End-to-end: `pinctl config import` of the OkHttp and TrustKit shapes of public apps (the `shape_*` files; their
/// READMEs name each one's origin): each readable shape imports with nothing on stderr, and each one pinctl cannot or
/// must not read stops with exit 2 at its place, saying why. What each import holds is PolicyEngineTests'
/// (`OkHttpShapeCorpusTests`, `TrustKitShapeCorpusTests`).
@Suite struct ShapeCorpusImportTests {
    static func importing(_ path: String, library: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import", path, "--library", library], in: Certs.root)
    }

    static let readableOkHttp = [
        "shape_java_method_local.java", "shape_kotlin_hilt_provides.kt",
        "shape_kotlin_object_constants.kt", "shape_kotlin_const_template.kt", "shape_java_constants_concat.java",
        "shape_kotlin_debug_switch.kt", "shape_kotlin_inline_client.kt", "shape_java_activity_try.java",
        "shape_kotlin_recipe_property.kt", "shape_java_recipe_field.java", "shape_java_okhttp2.java",
        "shape_java_lazy_singleton.java", "shape_java_generated_constants.java",
    ]

    static let readableTrustKit = [
        "shape_placeholder_backup.plist", "shape_enforce_subdomains.json", "shape_algorithms_and_report_uris.plist",
        "shape_flags_at_top_level.plist", "shape_ignore_user_anchors.plist", "shape_info_plist_report_only.plist",
        "shape_excluded_subdomain.json",
    ]

    @Test(arguments: readableOkHttp)
    func aReadableOkHttpShapeImports(_ name: String) throws {
        let result = try Self.importing(OkHttpFixtures.relative(name), library: "okhttp")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("    library: okhttp\n    policy:\n      pins:\n"), "\(result)")
    }

    @Test(arguments: readableTrustKit)
    func aReadableTrustKitShapeImports(_ name: String) throws {
        let result = try Self.importing(TrustKitFixtures.relative(name), library: "trustkit")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("    library: trustkit\n    policy:\n      domains:\n"), "\(result)")
    }

    @Test(arguments: [
        ("shape_java_host_variable.java", "23:18", "unresolved pattern hostname"),
        ("shape_java_pin_map_loop.java", "27:21", "entry.getKey"),
        ("shape_java_bare_hash_loop.java", "28:29", "host"),
        ("shape_kotlin_wrapper_function.kt", "15:25", "pattern"),
        ("shape_kotlin_buildconfig.kt", "11:18", "BuildConfig.AVATAR_HOST"),
    ])
    func anOkHttpShapeOnlyTheAppCanEvaluateExitsTwoAtItsPlace(_ name: String, _ place: String, _ saying: String)
        throws
    {
        let result = try Self.importing(OkHttpFixtures.relative(name), library: "okhttp")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("pinctl: \(OkHttpFixtures.relative(name)):\(place): "), "\(result)")
        #expect(result.stderr.contains(saying), "\(result)")
    }

    @Test(arguments: [
        ("shape_wrapper_keys.json", "TSKConfiguration", "not found: the file is neither an Info.plist"),
        ("shape_expiration_one_pin.plist", "TSKPinnedDomains.api.example.com.TSKPublicKeyHashes",
         "api.example.com has 1 distinct pin(s); TrustKit requires at least 2"),
        ("shape_additional_trust_anchors.plist", "TSKPinnedDomains.api.example.com.TSKAdditionalTrustAnchors",
         "TrustKit also trusts these certificates for the domain, which pinctl does not read"),
    ])
    func aTrustKitShapeTrustKitRefusesExitsTwoAtItsKey(_ name: String, _ keyPath: String, _ saying: String) throws {
        let result = try Self.importing(TrustKitFixtures.relative(name), library: "trustkit")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("pinctl: \(TrustKitFixtures.relative(name)): \(keyPath): "), "\(result)")
        #expect(result.stderr.contains(saying), "\(result)")
    }
}
