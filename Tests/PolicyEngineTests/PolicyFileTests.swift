import FileAccess
import Foundation
import PolicyEngine
import Testing
import TestSupport

/// DESIGN §7: the policy file. Every configuration error names the file, the line and the key.
@Suite("Policy file")
struct PolicyFileTests {
    /// Writes `text` as pinctl.yaml in a fresh directory (with certs/libraries/ copied in as `pki/`) and loads it.
    static func load(_ text: String, files: [String: String] = [:]) throws -> Result<PolicyFile, ConfigurationError> {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("pki")
            for name in ["intermediate-ca.pem", "leaf.pem", "root-ca.pem"] {
                try directory.write("pki/" + name, bytes: Certs.bytes("libraries/" + name))
            }
            for (name, content) in files {
                if name.contains("/") { try directory.makeDirectory(Path.parent(of: name)) }
                try directory.write(name, text: content)
            }
            let path = try directory.write("pinctl.yaml", text: text)
            return Result { () throws(ConfigurationError) in try PolicyFile.load(path) }
        }
    }

    static func expectError(
        _ text: String, line: Int?, keyPath: String?, saying fragment: String, files: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        switch try load(text, files: files) {
        case .success:
            Issue.record("loaded; expected an error saying \(fragment)", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error.file.hasSuffix("pinctl.yaml") || error.file.hasSuffix(".xml"), sourceLocation: sourceLocation)
            #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
            #expect(error.keyPath == keyPath, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    static let leafPin = LibraryCerts.pin(of: "leaf.pem")
    static let rootPin = LibraryCerts.pin(of: "root-ca.pem")

    @Test func aCompleteFileLoadsEveryAppWithItsLibraryVersionsAndHosts() throws {
        let file = try Self.load("""
            version: 1
            anchors: { ca-files: [pki/root-ca.pem] }
            targets: [api.example.com, "cdn.example.com:8443"]
            apps:
              - name: ios-afn
                versions: ["4.2", 4.10]
                library: afnetworking
                hosts: [api.example.com]
                policy: { mode: publickey, pins: [pki/intermediate-ca.pem, \(Self.leafPin)] }
              - name: okhttp-sdk
                library: okhttp
                policy: { pins: { "**.example.com": [\(Self.rootPin)] } }
            """).get()
        #expect(file.apps.map(\.name) == ["ios-afn", "okhttp-sdk"])
        #expect(file.apps.map(\.library) == [.afnetworking, .okhttp])
        #expect(file.apps[0].versions == ["4.2", "4.10"], "versions are read as written, not as numbers")
        #expect(file.targets.map(\.description) == ["api.example.com:443", "cdn.example.com:8443"])
        #expect(file.caFiles?.count == 1 && file.caFiles?[0].hasSuffix("/pki/root-ca.pem") == true)
        let afn = try #require(file.apps[0].policy as? AFNetworkingPolicy)
        #expect(afn.mode == .publicKey && afn.pinnedCertificates.count == 1 && afn.pinnedKeyHashes.count == 1)
        #expect(afn.pinnedKeyHashes[0].source.description.hasSuffix("pinctl.yaml:9 (apps[0].policy.pins[1])"))
    }

    @Test func anAppCoversTheHostsItListsAndTheHostsItsLibraryHasARuleFor() throws {
        let file = try Self.load("""
            apps:
              - name: listed
                library: afnetworking
                hosts: [API.example.com]
                policy: { mode: none }
              - name: patterned
                library: okhttp
                policy: { pins: { "*.example.com": [\(Self.rootPin)] } }
            """).get()
        #expect(file.apps(covering: "api.example.com").map(\.name) == ["listed", "patterned"])
        #expect(file.apps(covering: "www.example.com").map(\.name) == ["patterned"])
        #expect(file.apps(covering: "example.com").map(\.name) == [])
    }

    @Test("every configuration error names the file, the line and the key", arguments: [
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: none}\n    colour: blue\n",
                  line: 5, keyPath: "apps[0]", saying: "unknown key 'colour'"),
        ErrorCase("apps:\n  - name: a\n    library: okhtp\n    policy: {}\n",
                  line: 3, keyPath: "apps[0].library", saying: "unknown library 'okhtp'"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: none}\n  - name: a\n    library: okhttp\n    policy: {pins: {}}\n",
                  line: 5, keyPath: "apps[1]", saying: "two apps are named a"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: publickey, pins: [sha256/AAAA]}\n",
                  line: 4, keyPath: "apps[0].policy.pins[0]", saying: "3 bytes"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: publickey, pins: [missing/]}\n",
                  line: 4, keyPath: "apps[0].policy.pins[0]", saying: "no such file or directory"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: pinned}\n",
                  line: 4, keyPath: "apps[0].policy.mode", saying: "unknown mode 'pinned'"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: none, allowInvalidCertificates: yes}\n",
                  line: 4, keyPath: "apps[0].policy.allowInvalidCertificates", saying: "expected true or false"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n",
                  line: 2, keyPath: "apps[0]", saying: "needs a policy: (inline), a config: (the file the app ships) or a build:"),
        ErrorCase("apps:\n  - name: a\n    library: nsc\n    policy: {}\n",
                  line: 4, keyPath: "apps[0].policy", saying: "nsc has no inline form"),
        ErrorCase("apps:\n  - name: a\n    library: okhttp\n    policy: {pins: {\"*.*.example.com\": [sha256/AAAA]}}\n",
                  line: 4, keyPath: "apps[0].policy.pins['*.*.example.com']", saying: "Unexpected pattern: *.*.example.com"),
        ErrorCase("apps:\n  - name: a\n    library: nsc\n    config: res/xml/missing.xml\n",
                  line: 4, keyPath: "apps[0].config", saying: "no such file"),
        ErrorCase("version: 2\napps: []\n", line: 1, keyPath: "version", saying: "version 1"),
        ErrorCase("apps: []\n", line: 1, keyPath: "", saying: "no apps"),
        ErrorCase("targets: [\"api.example.com:99999\"]\napps:\n  - name: a\n    library: afnetworking\n    policy: {mode: none}\n",
                  line: 1, keyPath: "targets[0]", saying: "99999"),
        ErrorCase("apps:\n  - name: a\n    library: afnetworking\n    hosts: [\"a b\"]\n    policy: {mode: none}\n",
                  line: 4, keyPath: "apps[0].hosts[0]", saying: "contains ' '"),
        ErrorCase("apps:\n  - name: a\n   library: afnetworking\n", line: 3, keyPath: nil, saying: "not valid YAML"),
    ])
    func configurationErrorsNameThePlace(_ testCase: ErrorCase) throws {
        try Self.expectError(testCase.text, line: testCase.line, keyPath: testCase.keyPath, saying: testCase.saying)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int?
        let keyPath: String?
        let saying: String

        init(_ text: String, line: Int?, keyPath: String?, saying: String) {
            self.text = text
            self.line = line
            self.keyPath = keyPath
            self.saying = saying
        }

        var testDescription: String { saying }
    }

    /// An alias stands for its anchor's node, as Yams composed it: the app's hosts are the targets' list.
    @Test func anAliasIsItsAnchorsValue() throws {
        let file = try Self.load("""
            targets: &hosts [api.example.com]
            apps:
              - name: a
                library: afnetworking
                hosts: *hosts
                policy: {mode: none}
            """).get()
        #expect(file.apps(covering: "api.example.com").map(\.name) == ["a"])
        #expect(file.apps(covering: "www.example.com").isEmpty)
    }

    /// Nine lists of nine aliases of the list before: a billion `lol`s if expanded. Refused at the alias that takes
    /// the document past 100 000 nodes: lines 1–6 hold 74 735 with their aliases expanded (`&e` alone 66 430), so
    /// the first `*e` of line 7, at column 9.
    @Test func aBillionLaughsIsRefusedAtTheAliasThatGoesTooFar() throws {
        var text = "apps:\n  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for (name, previous) in zip("bcdefghi", "abcdefgh") {
            text += "  - &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        let error = try #require(Self.load(text).failure)
        #expect(error.line == 7 && error.column == 9, "\(error)")
        #expect(error.message == "aliases expand the document past 100000 nodes: write the values out", "\(error)")
    }

    /// Issue 17, 8d: a document past the cap without a single alias is told the cap, not blamed on aliases. The
    /// root mapping, its key and the list are nodes 1–3, so the 99 998th item (line 99 999) is node 100 001.
    @Test func aDocumentPastTheNodeCapWithoutAliasesIsToldTheCap() throws {
        let text = "targets:\n" + String(repeating: "  - a\n", count: 100_000)
        let error = try #require(Self.load(text).failure)
        #expect(error.line == 99_999 && error.column == 5, "\(error)")
        #expect(error.message == "the document holds more than 100000 nodes (scalars, lists and mappings), the most "
            + "pinctl reads in a policy file", "\(error)")
    }

    /// YAML 1.2 allows a byte order mark at the start of a stream; Windows editors write one. Places are counted
    /// without it.
    @Test func aLeadingByteOrderMarkIsAccepted() throws {
        let apps = "apps:\n  - name: a\n    library: afnetworking\n    hosts: [pinning.test]\n"
            + "    policy: {mode: none}\n"
        let file = try Self.load("\u{FEFF}version: 1\ntargets: [pinning.test]\n" + apps).get()
        #expect(file.targets.map(\.description) == ["pinning.test:443"])
        let error = try #require(Self.load("\u{FEFF}version: 2\n" + apps).failure)
        #expect(error.line == 1 && error.column == 10, "\(error)")
        #expect(error.message == "this pinctl reads version 1 policy files", "\(error)")
    }

    @Test func aKeyWrittenTwiceIsRefusedWhereItIsWrittenAgain() throws {
        let error = try #require(Self.load("version: 1\napps: []\nversion: 1\n").failure)
        #expect(error.line == 3 && error.column == 1, "\(error)")
        #expect(error.message == "the key 'version' is written twice in one mapping", "\(error)")
    }

    /// Yams' resolver gave a plain `yes` the tag !!bool and a plain `12` !!int: the same text under another tag is
    /// the same key only when the tags agree (YAMLTag's patterns, which Yams matched with NSRegularExpression).
    @Test(arguments: [("yes: 1\n!!bool yes: 2\n", true), ("12: 1\n!!int 12: 2\n", true),
                      ("12: 1\n!!str 12: 2\n", false), ("1_0: 1\n!!float 1_0: 2\n", false),
                      ("2026-01-31: 1\n!!timestamp 2026-01-31: 2\n", true), ("~: 1\n!!null ~: 2\n", true)])
    func aKeyIsTheSameKeyUnderTheTagYamsWouldHaveGivenIt(keys: String, same: Bool) throws {
        let error = try #require(Self.load("version: 1\n" + keys).failure)
        #expect(error.message.hasSuffix("is written twice in one mapping") == same, "\(error)")
    }

    @Test func aSecondDocumentIsRefused() throws {
        try Self.expectError("apps: []\n---\napps: []\n", line: 2, keyPath: nil,
                             saying: "not valid YAML: expected a single document in the stream but found another document")
    }

    /// `[` 100 000 times: refused where libyaml's scanner, reading up to 1024 characters ahead, has counted 1000
    /// levels by the time the second `[` (column 8) becomes a list.
    @Test func aDeeplyNestedFileIsRefusedWithoutOverflowingTheStack() throws {
        let text = "apps: " + String(repeating: "[", count: 100_000) + "\n"
        let error = try #require(Self.load(text).failure)
        #expect(error.line == 1 && error.column == 8, "\(error)")
        #expect(error.message.contains("Maximum nesting level reached"), "\(error)")
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() throws {
        // `@` is reserved and cannot start a scalar: line 4, just after `    library: ` (13 characters).
        let error = try #require(Self.load("version: 1\napps:\n  - name: a\n    library: @okhttp\n").failure)
        #expect(error.line == 4 && error.column == 14, "\(error)")
        #expect(error.message == "not valid YAML: while scanning for the next token found character that cannot start "
                + "any token", "\(error)")
        // A tab indenting a block: line 3, column 1.
        let tab = try #require(Self.load("version: 1\napps:\n\t- name: a\n").failure)
        #expect(tab.line == 3 && tab.column == 1, "\(tab)")
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        #expect(throws: ConfigurationError.self) { try PolicyFile.load("/nonexistent/pinctl.yaml") }
    }

    @Test func anNSCAppReadsItsXMLRelativeToThePolicyFile() throws {
        let xml = """
            <network-security-config>
              <domain-config>
                <domain includeSubdomains="true">example.com</domain>
                <pin-set><pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf.pem"))</pin></pin-set>
              </domain-config>
            </network-security-config>
            """
        let file = try Self.load("apps:\n  - name: android\n    library: nsc\n    config: res/xml/nsc.xml\n",
                                 files: ["res/xml/nsc.xml": xml]).get()
        #expect(file.apps(covering: "api.example.com").map(\.name) == ["android"])
        #expect(file.apps(covering: "example.org").isEmpty, "base-config alone covers nothing")
    }

    @Test func anNSCConfigErrorNamesTheXMLFileAndLine() throws {
        let xml = "<network-security-config>\n  <domain-config>\n    <pin-set/>\n  </domain-config>\n</network-security-config>\n"
        switch try Self.load("apps:\n  - name: android\n    library: nsc\n    config: nsc.xml\n", files: ["nsc.xml": xml]) {
        case .success: Issue.record("loaded")
        case .failure(let error):
            #expect(error.file.hasSuffix("nsc.xml"))
            #expect(error.line == 2)
            #expect(error.message == "No domain elements in domain-config")
        }
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
