import Foundation
import Testing
import TestSupport

/// DESIGN §9: JUnit, SARIF and GitHub annotations, all views of the same results; and one result shape in JSON.
@Suite struct CIFormatTests {
    /// A policy file of two apps; after a re-key, `ios-trustkit` (leaf + never-deployed backup) breaks and `okhttp-sdk`
    /// (the root) passes.
    static func policyFile() -> String {
        """
        version: 1
        anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
        apps:
          - name: ios-trustkit
            versions: ["3.1"]
            library: trustkit
            policy: { domains: { api.example.com: { publicKeyHashes: [\(LibraryCerts.bareBase64(of: "leaf.pem")), \(LibraryCerts.bareBase64(of: "leaf-other-intermediate.pem"))] } } }
          - name: okhttp-sdk
            library: okhttp
            policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "root-ca.pem"))] } }
        """
    }

    /// `pinctl verify --config` of the re-keyed chain in `format`, with `environment`.
    func run(_ format: String, environment: [String: String] = [:]) throws -> (PinctlProcess.Result, String) {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile())
            let result = try PinctlProcess.run(
                ["verify", "--config", file, "--chain", LibraryCerts.path("leaf-rekeyed-chain.pem"), "--host",
                 "api.example.com", "--at", TestTime.nowText, "--format", format], environment: environment)
            return (result, file)
        }
    }

    @Test func junitHasOneSuitePerAppAndAFailureTypedByTheReasonCode() throws {
        let (result, _) = try run("junit")
        #expect(result.status == 1, "\(result)")
        let root = try ElementTree.parse(result.stdout)
        #expect(root.tag == "testsuites")
        #expect(root.attribute("tests") == "2")
        #expect(root.attribute("failures") == "1")
        let suites = root.elements("testsuite")
        #expect(suites.map { $0.attribute("name") } == ["ios-trustkit", "okhttp-sdk"])
        let broken = try #require(suites.first?.elements("testcase").first)
        #expect(broken.attribute("classname") == "ios-trustkit")
        #expect(broken.attribute("name") == LibraryCerts.path("leaf-rekeyed-chain.pem"))
        let failure = try #require(broken.elements("failure").first)
        #expect(failure.attribute("type") == "public-key-not-pinned")
        #expect(failure.text.contains("no key in the chain matches the 2 pinned key(s)"))
        #expect(suites.last?.elements("testcase").first?.elements("failure").isEmpty == true)
    }

    @Test func sarifIsValidAgainstTheSchemaWithOneResultPerRejectionAtTheAppsLine() throws {
        let (result, file) = try run("sarif")
        #expect(result.status == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results[0]["ruleId"] as? String == "public-key-not-pinned")
        let location = try #require(((results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == file)
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 4, "the line of the app ios-trustkit")
        try SARIFSchema.validate(result.stdout)
    }

    @Test func onGitHubActionsTextModeAnnotatesTheRejectionAtTheAppsLine() throws {
        let (result, file) = try run("text", environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result)")
        let annotations = LiveRun.lines(result.stdout).filter { $0.hasPrefix("::") }
        #expect(annotations.count == 1, "\(result)")
        let escapedFile = file.replacingOccurrences(of: ":", with: "%3A")
        #expect(annotations.first?.hasPrefix("::error file=\(escapedFile),line=4,title=pinctl%3A public-key-not-pinned::")
            == true, "\(annotations)")
        #expect(annotations.first?.contains("(ios-trustkit 3.1): public key not pinned") == true, "\(annotations)")
        let plain = try run("text")
        #expect(!plain.0.stdout.contains("::error"), "no annotations outside GitHub Actions")
    }

    @Test func anErrorVerdictCarriesTheSameIdentifyingFieldsAsAJudgedOne() throws {
        let result = try PinctlProcess.run(["check", "127.0.0.1:1", "--mode", "publickey", "--pin",
                                            LiveRun.pin(of: "leaf.pem"), "--format", "json"] + LiveRun.anchors)
        #expect(result.status == 3, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["verdict"] as? String == "error")
        #expect(object["target"] as? String == "127.0.0.1:1")
        #expect(object["evaluatedAt"] as? String == TestTime.nowText)
        #expect(object["library"] as? String == "afnetworking")
        #expect((object["policy"] as? [String: Any])?["mode"] as? String == "publickey")
        #expect(LiveRun.reasonCode(object) == "refused")
    }

    @Test func junitOfAnUnreachableTargetIsAnError() throws {
        let result = try PinctlProcess.run(["check", "127.0.0.1:1", "--format", "junit"] + LiveRun.anchors)
        #expect(result.status == 3, "\(result)")
        let root = try ElementTree.parse(result.stdout)
        #expect(root.attribute("errors") == "1")
        let error = root.elements("testsuite").first?.elements("testcase").first?.elements("error").first
        #expect(error?.attribute("type") == "refused")
    }
}

/// The SARIF 2.1.0 JSON schema, checked with Python's jsonschema (scripts/fetch-test-tools.sh puts both in place).
enum SARIFSchema {
    static let path = Certs.root + "/.build/test-tools/sarif-schema-2.1.0.json"

    static func validate(_ document: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("the SARIF schema is missing: run scripts/fetch-test-tools.sh (CI does)", sourceLocation: sourceLocation)
            return
        }
        try TemporaryDirectory.with { directory in
            let file = try directory.write("result.sarif", text: document)
            let result = try Subprocess.run("python3", ["-c", """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[1]))
                jsonschema.validate(json.load(open(sys.argv[2])), schema)
                """, path, file])
            #expect(result.status == 0, "not valid SARIF 2.1.0: \(result.stderr)", sourceLocation: sourceLocation)
        }
    }
}
