import Foundation
import PolicyEngine
import Testing
import TestSupport

/// Every host a policy names, in each library's form, in the policy file and in imported files, is a host name: the
/// text that ran code when an export was compiled (issue 17) is refused where it is written.
@Suite("Host names in policies")
struct PolicyHostNameTests {
    /// Java code after a Unicode escape that javac turns into a line break; YAML's single quotes keep the backslash.
    static let injected = #"x\u000aRuntime.getRuntime().exec("id");//"#

    static func app(_ library: String, _ policy: String) -> String {
        """
        version: 1
        apps:
          - name: app
            library: \(library)
            policy:
        \(policy)

        """
    }

    @Test func anAlamofireKeyThatIsNoHostNameIsRefusedAtItsKey() throws {
        try PolicyFileTests.expectError(Self.app("alamofire", """
                  evaluators:
                    '\(Self.injected)': {kind: disabled}
            """), line: 7, keyPath: "apps[0].policy.evaluators['\(Self.injected)']",
            saying: "contains '\\': a host name has only letters, digits, '-', '_' and dots")
        try PolicyFileTests.expectError(Self.app("alamofire", """
                  evaluators:
                    api.example.com: {kind: disabled}
                    'a b.example.com:443': {kind: disabled}
            """), line: 8, keyPath: "apps[0].policy.evaluators['a b.example.com:443']", saying: "contains ' '")
    }

    /// Alamofire compares keys with the host exactly, so these are legal keys that never match; they are kept, and
    /// judging names them in a warning.
    @Test(arguments: ["*.example.com", "api.example.com:443", "API.example.com.", "::1"])
    func anAlamofireKeyMayBeANearMissAsTheAppWroteIt(_ key: String) throws {
        let loaded = try PolicyFileTests.load(Self.app("alamofire", """
                  evaluators:
                    '\(key)': {kind: disabled}
            """)).get()
        let policy = try #require(loaded.apps.first?.policy as? AlamofirePolicy)
        #expect(policy.evaluators.map(\.host) == [key])
    }

    @Test func okhttpAndTrustKitInlineHostsAreRefusedAtTheirKey() throws {
        try PolicyFileTests.expectError(Self.app("okhttp", """
                  pins:
                    '*.{env}.example.com': [\(okA)]
            """), line: 7, keyPath: "apps[0].policy.pins['*.{env}.example.com']", saying: "contains '{'")
        let hashes = "[\(LibraryCerts.bareBase64(of: "leaf.pem")), \(LibraryCerts.bareBase64(of: "root-ca.pem"))]"
        try PolicyFileTests.expectError(Self.app("trustkit", """
                  domains:
                    '\(Self.injected).com': {publicKeyHashes: \(hashes)}
            """), line: 7, keyPath: "apps[0].policy.domains['\(Self.injected).com']", saying: "contains '\\'")
    }

    @Test func anImportedNSCDomainIsAHostName() throws {
        let xml = """
            <network-security-config>
              <domain-config>
                <domain>api.example.com</domain>
                <domain>\(Self.injected.replacingOccurrences(of: "\"", with: "&quot;"))</domain>
                <pin-set><pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf.pem"))</pin></pin-set>
              </domain-config>
            </network-security-config>
            """
        try TemporaryDirectory.with { directory in
            let path = try directory.write("network_security_config.xml", text: xml)
            let error = #expect(throws: ConfigurationError.self) { try NSCXMLReader.read(path) }
            #expect(error?.line == 4, "\(String(describing: error))")
            #expect(error?.message.contains("contains '\\'") == true, "\(String(describing: error))")
        }
    }

    @Test func anImportedTrustKitDomainIsAHostName() throws {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("TSKConfiguration.json", text: """
                {"TSKPinnedDomains": {"exa mple.com": {"TSKPublicKeyHashes": ["\(TKSummary.pin("leaf.pem"))",
                 "\(TKSummary.pin("root-ca.pem"))"]}}}
                """)
            let error = trustKitRefusal(path)
            #expect(error?.keyPath == "TSKPinnedDomains.exa mple.com", "\(String(describing: error))")
            #expect(error?.message.contains("contains ' '") == true, "\(String(describing: error))")
        }
    }

    /// OkHttp itself accepts `$`, `"` and braces in a pattern (no host ever has them); pinctl refuses the file there.
    @Test(arguments: [("P.kt", #".add("a\$b.example.com", "\#(okA)")"#, 14),
                      ("P.java", #".add("**.{env}.example.com", "\#(okA)")"#, 14)])
    func anOkHttpPatternInASourceIsAHostName(_ file: String, _ call: String, _ column: Int) throws {
        let source = (file.hasSuffix(".kt") ? "val p = CertificatePinner.Builder()\n"
            : "CertificatePinner p = new CertificatePinner.Builder()\n") + "        \(call)\n        .build()\n"
        do {
            let read = try readOkHttpSource(file, source)
            Issue.record("read: \(read.policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.line == 2 && error.column == column, "\(error)")
            #expect(error.message.contains("is not a host name") || error.message.contains("contains"), "\(error)")
        }
    }
}
