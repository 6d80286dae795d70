import Foundation
import Testing
import TestSupport

/// XML 1.0 cannot hold most control characters, not even as character references (§2.2 Char): a JUnit report shows
/// them as visible escapes and still parses; a configuration export refuses them, naming the value; an export shown
/// on a terminal sends it nothing raw. SARIF is JSON, which escapes them.
@Suite struct XMLOutputSafetyTests {
    /// ESC, BEL and SOH in a leaf's only name.
    static let hostileSAN = "DNS:evil\u{1B}[2J\u{07}\u{01}.test"

    /// A policy file whose one app's name and version hold ESC, anchored at `anchor` for other.test.
    static func policyFile(anchor: String) -> String {
        """
        version: 1
        anchors: { ca-files: [\(anchor)] }
        apps:
          - name: "app\\e[31m"
            versions: ["1.0\\e]0;x\\a"]
            library: alamofire
            policy: { evaluators: { other.test: { kind: default } } }
        """
    }

    @Test func junitOfControlCharactersParsesAndShowsThemEscaped() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.selfSigned("evil", subject: "/CN=evil", subjectAltName: Self.hostileSAN, in: directory.path)
            let evil = directory.path("evil.pem")
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(anchor: evil))
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", evil, "--host", "other.test",
                                                "--at", OpenSSLCLI.validTime, "--format", "junit"])
            #expect(result.status == 1, "\(result)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(result)")
            let root = try ElementTree.parse(result.stdout)
            let suite = try #require(root.elements("testsuite").first)
            #expect(suite.attribute("name") == "app\\x1B[31m")
            let failure = try #require(suite.elements("testcase").first?.elements("failure").first, "\(root)")
            #expect(failure.attribute("type") == "hostname-mismatch", "\(root)")
            #expect(failure.text.contains("evil\\x1B[2J\\x07\\x01.test"), "\(failure.text)")
        }
    }

    @Test func sarifOfControlCharactersEscapesThemAsJSON() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.selfSigned("evil", subject: "/CN=evil", subjectAltName: Self.hostileSAN, in: directory.path)
            let evil = directory.path("evil.pem")
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(anchor: evil))
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", evil, "--host", "other.test",
                                                "--at", OpenSSLCLI.validTime, "--format", "sarif"])
            #expect(result.status == 1, "\(result)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result)")
            #expect(result.stdout.contains("evil\\u001b[2J\\u0007\\u0001.test"), "\(result)")
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            let object = try #require(parsed as? [String: Any])
            let run = try #require((object["runs"] as? [[String: Any]])?.first)
            let first = (run["results"] as? [[String: Any]])?.first
            let message = (first?["message"] as? [String: Any])?["text"] as? String
            #expect(message?.contains("evil\u{1B}[2J\u{07}\u{01}.test") == true, "\(String(describing: message))")
        }
    }

    /// A TrustKit app of `domain`, whose domains reach the export as they are written.
    static func trustKitPolicy(domain: String) -> String {
        """
        version: 1
        apps:
          - name: ios
            library: trustkit
            policy: { domains: { "\(domain)": { publicKeyHashes: [\(LibraryCerts.bareBase64(of: "root-ca.pem")), \
        \(LibraryCerts.bareBase64(of: "leaf.pem"))] } } }
        """
    }

    /// A domain holding a control character cannot be written in an NSC file: the export refuses, naming it, and
    /// writes nothing (an export that changed the host silently would be a lie).
    @Test func nscExportOfADomainHoldingAControlCharacterIsRefused() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.trustKitPolicy(domain: "a\\x1Bb.example.com"))
            let out = directory.path("network_security_config.xml")
            for target in [["--out", out], []] {
                let result = try PinctlProcess.run(["config", "export", "--config", file, "--app", "ios", "--to", "nsc"]
                    + target)
                #expect(result.status == 2, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(result.stderr.contains("a\\x1Bb.example.com"), "\(result)")
                #expect(!(result.stdout + result.stderr).unicodeScalars.contains("\u{1B}"), "\(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// DEL, which XML can hold but a terminal is not sent raw: on a terminal the export shows it escaped.
    @Test func anExportOnATerminalSendsItNoControl() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.trustKitPolicy(domain: "a\\x7Fb.example.com"))
            // script(1) gives pinctl a terminal for its stdout (and stderr, which it merges).
            let result = try PinctlProcess.runShell(
                "script -qec '\"$PINCTL\" config export --config \(file) --app ios --to nsc' /dev/null")
            #expect(!result.stdout.unicodeScalars.contains("\u{7F}"), "\(result)")
            #expect(result.stdout.contains("a\\x7Fb.example.com"), "\(result)")
        }
    }
}
