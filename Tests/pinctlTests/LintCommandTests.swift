import Foundation
import Testing
import TestSupport

/// `pinctl lint` end to end (DESIGN §10): JSON per (app, host), the exit code, the text table, breaksOn per case.
@Suite struct LintCommandTests {
    static let at = ["--at", TestTime.nowText]

    static func policyFile(_ apps: String) -> String {
        "version: 1\nanchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }\napps:\n" + apps
    }

    func lint(_ apps: String, _ arguments: [String] = [], format: String = "json") throws -> PinctlProcess.Result {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(apps))
            return try PinctlProcess.run(["lint", "--config", file, "--chain", LibraryCerts.path("leaf-chain.pem"),
                                          "--host", "api.example.com", "--format", format] + Self.at + arguments)
        }
    }

    static let leafOnly = """
          - name: ios
            versions: ["4.2"]
            library: afnetworking
            hosts: [api.example.com]
            policy: { mode: publickey, pins: [\(LibraryCerts.pin(of: "leaf.pem"))] }
        """

    @Test func aPolicyWithoutABackupIsAnErrorWithTheForecastInJSON() throws {
        let result = try lint(Self.leafOnly)
        #expect(result.status == 1, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["app"] as? String == "ios")
        #expect(object["host"] as? String == "api.example.com")
        #expect(object["rotation"] as? [String: String] == [
            "renew-leaf": "survives", "rekey-leaf": "breaks", "new-intermediate": "breaks", "new-ca": "breaks",
        ])
        #expect(object["breaksOn"] as? String == "2125-01-01T00:00:00Z", "the leaf's notAfter (openssl: Jan 1 2125)")
        let attribution = try #require(object["attribution"] as? [[String: Any]])
        #expect(attribution.count == 1)
        #expect(attribution[0]["certificate"] as? Int == 0)
        #expect((attribution[0]["source"] as? String)?.contains("apps[0].policy.pins[0]") == true)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["code"] as? String == "no-backup-pin" && $0["severity"] as? String == "error" })
        #expect(findings.contains { $0["code"] as? String == "rotation-breaks" && $0["date"] as? String == "2125-01-01T00:00:00Z" })
    }

    @Test func aBackedUpPolicyPassesWithThePinItHoldsInReserveNoted() throws {
        let apps = """
              - name: sdk
                library: okhttp
                policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "intermediate-ca.pem")), \(LibraryCerts.pin(of: "other-root-ca.pem"))] } }
            """
        let result = try lint(apps, format: "text")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("sdk (okhttp) — api.example.com"), "\(result)")
        #expect(result.stdout.contains("matches #1 intermediate CN=Libraries Intermediate CA"), "\(result)")
        #expect(result.stdout.contains("matches nothing"), "\(result)")
        #expect(result.stdout.contains("forecast   renew-leaf survives · rekey-leaf survives · new-intermediate needs-backup · new-ca needs-backup"),
                "\(result)")
        #expect(result.stdout.contains("breaks on  -"), "\(result)")
        #expect(result.stdout.contains("info     pin-unused"), "\(result)")
    }

    @Test("breaksOn is the notAfter of the certificate whose replacement breaks the app", arguments: [
        ("dated-leaf.pem", "dated-leaf.pem"), ("dated-intermediate.pem", "dated-intermediate.pem"),
        ("dated-root.pem", "dated-root.pem"),
    ])
    func breaksOnFollowsThePinnedPosition(_ pinned: String, _ dateOf: String) throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.datedChain(in: directory.path)
            let file = try directory.write("pinctl.yaml", text: """
                apps:
                  - name: ios
                    library: afnetworking
                    hosts: [api.example.com]
                    policy: { mode: publickey, pins: [\(directory.path(pinned))] }
                """)
            let result = try PinctlProcess.run(["lint", "--config", file, "--chain", directory.path("dated-chain.pem"),
                                                "--host", "api.example.com", "--ca-file", directory.path("dated-root.pem"),
                                                "--at", OpenSSLCLI.validTime, "--format", "json"])
            let object = try LiveRun.object(result.stdout)
            #expect(object["breaksOn"] as? String == (try OpenSSLCLI.notAfter(directory.path(dateOf))), "\(result)")
        }
    }

    @Test func lintOfALiveTargetJudgesWhatTheServerSends() throws {
        let server = try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"), keyPath: LibraryCerts.path("leaf.key"))
        defer { server.stop() }
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(Self.leafOnly))
            let result = try PinctlProcess.run(["lint", "--config", file, "127.0.0.1:\(server.port)", "--servername",
                                                "api.example.com", "--format", "json"] + Self.at)
            #expect(result.status == 1, "\(result)")
            #expect(try LiveRun.object(result.stdout)["target"] as? String == "127.0.0.1:\(server.port)")
        }
    }

    @Test func lintSARIFIsValidAndLocatesAFindingAtItsPin() throws {
        let result = try lint(Self.leafOnly, format: "sarif")
        #expect(result.status == 1, "\(result)")
        try SARIFSchema.validate(result.stdout)
        #expect(result.stdout.contains("\"ruleId\":\"no-backup-pin\""), "\(result)")
    }

    @Test func lintNeedsAHostForChainFiles() throws {
        let result = try PinctlProcess.run(["lint", "--chain", "leaf.pem", "--mode", "publickey", "--pin", LiveRun.pin(of: "leaf.pem")])
        #expect(result.status == 2 && result.stderr.contains("--chain needs --host"), "\(result)")
    }
}
