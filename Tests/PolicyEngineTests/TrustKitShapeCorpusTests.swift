import Foundation
import PolicyEngine
import TestSupport
import Testing

/// A `shape_*` file of Tests/Fixtures/trustkit/ (README.md names its origin) and the domains TrustKit reads from it,
/// one `TKSummary` line each, written by hand from the file.
struct TKShapeCase: Sendable, CustomTestStringConvertible {
    let file: String
    let domains: [String: String]

    var testDescription: String { file }
}

private func pin(_ file: String) -> String { TKSummary.pin(file) }
private let placeholderA = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
/// The files write `BBB…B=`, whose last character carries bits base64 drops: these are the bytes it decodes to.
private let placeholderB = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="

let trustKitShapeCases: [TKShapeCase] = [
    TKShapeCase(file: "shape_placeholder_backup.plist",
                domains: ["api.example.com": TKSummary.line([pin("leaf.pem"), placeholderB])]),
    TKShapeCase(file: "shape_enforce_subdomains.json", domains: [
        "example.com": TKSummary.line([pin("intermediate-ca.pem"), pin("other-intermediate-ca.pem")], subdomains: true),
    ]),
    TKShapeCase(file: "shape_algorithms_and_report_uris.plist", domains: [
        "example.com": TKSummary.line([placeholderA, placeholderB], subdomains: true),
        "www.example.com": TKSummary.line([pin("leaf.pem"), pin("leaf-rekeyed.pem")]),
    ]),
    // TrustKit reads TSKIncludeSubdomains only inside a domain: the one at the top changes nothing.
    TKShapeCase(file: "shape_flags_at_top_level.plist", domains: [
        "api.example.com": TKSummary.line([pin("leaf.pem"), pin("leaf-rekeyed.pem"), pin("intermediate-ca.pem")]),
    ]),
    TKShapeCase(file: "shape_ignore_user_anchors.plist", domains: [
        "example.com": TKSummary.line([pin("intermediate-ca.pem"), pin("root-ca.pem")], subdomains: true),
    ]),
    TKShapeCase(file: "shape_info_plist_report_only.plist", domains: [
        "api.example.com": TKSummary.line([pin("other-intermediate-ca.pem"), pin("other-root-ca.pem")],
                                          enforce: false),
    ]),
    TKShapeCase(file: "shape_excluded_subdomain.json", domains: [
        "example.com": TKSummary.line([pin("intermediate-ca.pem"), pin("other-root-ca.pem")], subdomains: true,
                                      expires: "2027-12-31"),
        "unsecured.example.com": TKSummary.excluded,
    ]),
]

/// A shape TrustKit itself refuses, or that is no TrustKit configuration: the key path and words of the reason.
struct TKShapeRefusal: Sendable, CustomTestStringConvertible {
    let file: String
    let keyPath: String
    let fragment: String

    init(_ file: String, _ keyPath: String, _ fragment: String) {
        self.file = file
        self.keyPath = keyPath
        self.fragment = fragment
    }

    var testDescription: String { file }
}

let trustKitShapeRefusals: [TKShapeRefusal] = [
    TKShapeRefusal("shape_wrapper_keys.json", "TSKConfiguration", "not found: the file is neither an Info.plist"),
    TKShapeRefusal("shape_expiration_one_pin.plist", "TSKPinnedDomains.api.example.com.TSKPublicKeyHashes",
                "api.example.com has 1 distinct pin(s); TrustKit requires at least 2"),
    // TrustKit 1.5 trusts these roots for the domain; pinctl cannot follow, so it says so rather than judge
    // without them.
    TKShapeRefusal("shape_additional_trust_anchors.plist",
                "TSKPinnedDomains.api.example.com.TSKAdditionalTrustAnchors",
                "TrustKit also trusts these certificates for the domain, which pinctl does not read"),
]

@Suite("TrustKit shapes of public apps")
struct TrustKitShapeCorpusTests {
    @Test("each shape reads as TrustKit reads it", arguments: trustKitShapeCases)
    func eachShapeReadsAsTrustKitReadsIt(_ shape: TKShapeCase) throws {
        let (policy, _) = try readTrustKit(TrustKitFixtures.path(shape.file))
        #expect(TKSummary.of(policy) == shape.domains)
    }

    @Test("each shape TrustKit refuses is refused", arguments: trustKitShapeRefusals)
    func eachRefusedShapeIsRefused(_ refusal: TKShapeRefusal) throws {
        let error = try #require(trustKitRefusal(TrustKitFixtures.path(refusal.file)))
        #expect(error.keyPath == refusal.keyPath, "\(error)")
        #expect(error.message.contains(refusal.fragment), "\(error)")
    }

    @Test func everyShapeFileHasAnExpectationAndARowInTheReadme() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TrustKitFixtures.directory)
        let files = Set(names.filter { $0.hasPrefix("shape_") })
        #expect(files == Set(trustKitShapeCases.map(\.file) + trustKitShapeRefusals.map(\.file)))
        #expect(files.count >= 10)
        let readme = try String(contentsOfFile: TrustKitFixtures.path("README.md"), encoding: .utf8)
        for file in files { #expect(readme.contains("`\(file)`"), "\(file) has no row in the README") }
    }
}
