import Foundation
import Testing
import TestSupport

/// A malformed TrustKit configuration of Tests/Fixtures/trustkit/ and where pinctl must point: the line (when the
/// parser gives one), the key path, and words of the message.
struct TKMalformed: Sendable, CustomTestStringConvertible {
    let file: String
    let line: Int?
    let keyPath: String
    let fragment: String

    init(_ file: String, line: Int? = nil, _ keyPath: String, _ fragment: String) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.fragment = fragment
    }

    var testDescription: String { file }

    /// `FILE[:LINE]: [KEYPATH: ]`, as the message starts.
    var place: String {
        TrustKitFixtures.relative(file) + (line.map { ":\($0)" } ?? "") + ": " + (keyPath.isEmpty ? "" : keyPath + ": ")
    }
}

private let domains = "TSKConfiguration.TSKPinnedDomains."

private let malformed = [
    TKMalformed("bad_not_plist.plist", line: 13, "",
                "not a property list (XML or binary) or JSON: Opening and ending tag mismatch: string line 13 and strin"),
    TKMalformed("bad_not_json.json", line: 5, "", "not JSON: invalid token near 'yes'"),
    TKMalformed("bad_truncated-binary.plist", "", "a binary property list that cannot be read (cut short or damaged)"),
    TKMalformed("bad_top_array.json", "", "holds an array, not a dictionary"),
    TKMalformed("bad_no_configuration.plist", "TSKConfiguration", "not found: the file is neither an Info.plist"),
    TKMalformed("bad_configuration_not_dictionary.plist", "TSKConfiguration", "must be a dictionary, not an array"),
    TKMalformed("bad_hash_type.plist", domains + "api.example.com.TSKPublicKeyHashes[1]",
                "must be a base64 string, not data"),
    TKMalformed("bad_hash_type-binary.plist", domains + "api.example.com.TSKPublicKeyHashes[1]",
                "must be a base64 string, not data"),
    TKMalformed("bad_hash_prefix.plist", domains + "api.example.com.TSKPublicKeyHashes[1]",
                "TrustKit would refuse this configuration: 'sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc=' is "
                    + "not the base64 of a 32-byte SHA-256 hash (TrustKit's hashes are bare base64, without sha256/)"),
    TKMalformed("bad_hash_not_array.json", "TSKPinnedDomains.api.example.com.TSKPublicKeyHashes",
                "must be an array of base64 strings, not a string"),
    TKMalformed("bad_flag_type.json", "TSKPinnedDomains.api.example.com.TSKIncludeSubdomains",
                "must be a boolean, not an array"),
    TKMalformed("bad_domain_not_dictionary.json", "TSKPinnedDomains.api.example.com",
                "must be a dictionary (the domain's policy), not an array"),
    TKMalformed("bad_date_type.plist", domains + "api.example.com.TSKExpirationDate",
                "a <date>, but TrustKit reads a string written yyyy-MM-dd"),
    TKMalformed("bad_one_pin.plist", domains + "api.example.com.TSKPublicKeyHashes",
                "api.example.com has 1 distinct pin(s); TrustKit requires at least 2"),
    TKMalformed("bad_no_pin_report_only.json", "TSKPinnedDomains.api.example.com.TSKPublicKeyHashes",
                "api.example.com has 0 distinct pin(s); TrustKit requires at least 1"),
    TKMalformed("bad_exclusion_extra_key.plist", domains + "status.example.com.kSKExcludeSubdomainFromParentPolicy",
                "may hold no other key, but status.example.com also has TSKIncludeSubdomains"),
    TKMalformed("bad_exclusion_without_parent.json",
                "TSKPinnedDomains.status.example.com.kSKExcludeSubdomainFromParentPolicy",
                "no domain with includeSubdomains covers it"),
    TKMalformed("bad_guessed_exclusion.plist", domains + "status.example.com",
                "0 distinct pin(s); TrustKit requires at least 2 when pinning is enforced (a backup pin). TrustKit's "
                    + "exclusion key is spelled kSKExcludeSubdomainFromParentPolicy"),
    TKMalformed("bad_public_suffix.plist", domains + "co.uk.TSKIncludeSubdomains", "co.uk, a public suffix"),
    TKMalformed("bad_no_pinned_domains.plist", "TSKConfiguration.TSKPinnedDomains", "no pinned domains"),
    TKMalformed("bad_legacy_layout.plist", "TSKConfiguration.TSKPinnedDomains", "no pinned domains: TrustKit refuses a configuration "
        + "without TSKPinnedDomains. Domains directly under TSKConfiguration are the layout of TrustKit before 1.2.0"),
    TKMalformed("bad_report_uri.plist", domains + "api.example.com.TSKReportUris[0]",
                "'http://[::1/report' is not a URL"),
]

/// End-to-end: `pinctl config import` of TrustKit's configurations, run from the repository root.
@Suite struct TrustKitConfigImportTests {
    func importing(_ name: String, _ extra: [String] = []) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import", TrustKitFixtures.relative(name), "--library", "trustkit"] + extra,
                              in: Certs.root)
    }

    @Test func anInfoPlistBecomesAnInlineAppEntry() throws {
        let result = try importing("Info.plist", ["--name", "ios"])
        #expect(result.status == 0, "\(result)")
        let leaf = LibraryCerts.bareBase64(of: "leaf.pem")
        let rekeyed = LibraryCerts.bareBase64(of: "leaf-rekeyed.pem")
        #expect(result.stdout.hasPrefix("  - name: ios\n    library: trustkit\n    policy:\n      domains:\n"),
                "\(result)")
        #expect(result.stdout.contains("        api.example.com:\n          publicKeyHashes: [\(leaf), \(rekeyed)]\n"),
                "\(result)")
        #expect(result.stdout.contains(
            "        status.example.com:\n          excludeSubdomainFromParentPolicy: true\n"), "\(result)")
        #expect(result.stdout.contains("          enforcePinning: false\n          expirationDate: 2026-05-01\n"),
                "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("every shape imports as the Info.plist does", arguments: TrustKitFixtures.shapes.dropFirst())
    func everyShapeImportsAsTheInfoPlistDoes(_ name: String) throws {
        let plist = try importing("Info.plist", ["--name", "ios"])
        let other = try importing(name, ["--name", "ios"])
        #expect(other.status == 0, "\(other)")
        #expect(other.stdout == plist.stdout, "\(other)")
    }

    @Test func verboseNamesTheKeysTrustKitHasNoUseForOffline() throws {
        let result = try importing("Info.plist", ["--verbose"])
        #expect(result.status == 0, "\(result)")
        let place = "note: \(TrustKitFixtures.relative("Info.plist")): TSKConfiguration."
        #expect(result.stderr.contains(place + "TSKSwizzleNetworkDelegates: ignored"), "\(result)")
        #expect(result.stderr.contains(place + "TSKPinnedDomains.api.example.com.TSKReportUris: ignored"), "\(result)")
        #expect(!(try importing("Info.plist")).stderr.contains("note:"))
    }

    @Test func anEmptyConfigurationIsReferencedNotInlined() throws {
        let result = try importing("empty-configuration.plist", ["--name", "ios"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "  - name: ios\n    library: trustkit\n    config: "
            + TrustKitFixtures.relative("empty-configuration.plist") + "\n", "\(result)")
    }

    @Test("malformed configurations", arguments: malformed)
    func aMalformedConfigurationExitsTwoNamingFileAndKeyPath(_ bad: TKMalformed) throws {
        let result = try importing(bad.file)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("pinctl: " + bad.place), "\(result)")
        #expect(result.stderr.contains(bad.fragment), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test func everyMalformedFixtureIsInTheTable() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TrustKitFixtures.directory)
            .filter { $0.hasPrefix("bad_") }
        #expect(Set(files) == Set(malformed.map(\.file)))
    }

    /// In a policy file the error still names the plist and the key path, not only the line of `config:`.
    @Test func aMalformedConfigGivenInAPolicyFileIsNamedWithItsKeyPath() throws {
        for bad in malformed where ["bad_hash_type-binary.plist", "bad_not_json.json"].contains(bad.file) {
            try TemporaryDirectory.with { directory in
                let file = try directory.write("pinctl.yaml", text: """
                    version: 1
                    apps:
                      - name: ios
                        library: trustkit
                        config: \(TrustKitFixtures.path(bad.file))
                    """)
                let result = try PinctlProcess.run(["verify", "--config", file, "--chain", "leaf-chain.pem", "--host",
                                                    "api.example.com", "--at", TestTime.nowText],
                                                   in: LibraryCerts.directory)
                #expect(result.status == 2, "\(result)")
                let place = bad.place.replacingOccurrences(of: TrustKitFixtures.relative(bad.file),
                                                           with: TrustKitFixtures.path(bad.file))
                #expect(result.stderr.hasPrefix("pinctl: " + place), "\(result)")
                #expect(result.stderr.contains(bad.fragment), "\(result)")
            }
        }
    }
}
