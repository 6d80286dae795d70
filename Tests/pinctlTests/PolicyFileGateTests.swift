import Foundation
import Testing
import TestSupport

/// The CI gate of DESIGN §7 end to end: one policy file of several apps, each pinning with its own library, checked
/// against live loopback servers and offline; a rotation breaks some apps and not others.
@Suite struct PolicyFileGateTests {
    /// Five apps pinning certs/libraries/ five ways; after a re-key of the leaf, exactly the two that pinned only the
    /// old leaf key (by hand: TrustKit's leaf + a never-deployed backup, NSC's leaf alone) break.
    static func policyFile(targets: [String]) -> String {
        let leaf = LibraryCerts.bareBase64(of: "leaf.pem")
        let backup = LibraryCerts.bareBase64(of: "leaf-other-intermediate.pem")
        return """
            version: 1
            anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
            targets: [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))]
            apps:
              - name: ios-afn
                versions: ["4.2", "4.3"]
                library: afnetworking
                hosts: [api.example.com]
                policy: { mode: publickey, pins: [\(LibraryCerts.path("intermediate-ca.pem"))] }
              - name: ios-alamofire
                library: alamofire
                policy: { evaluators: { api.example.com: { kind: pinned-certificates, certificates: [\(LibraryCerts.path("root-ca.pem"))] } } }
              - name: ios-trustkit
                versions: ["3.1"]
                library: trustkit
                policy: { domains: { api.example.com: { publicKeyHashes: [\(leaf), \(backup)] } } }
              - name: okhttp-sdk
                library: okhttp
                policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "root-ca.pem"))] } }
              - name: android
                versions: ["5.0-5.9"]
                library: nsc
                config: nsc.xml
            """
    }

    static let nscXML = """
        <network-security-config>
          <domain-config>
            <domain includeSubdomains="true">example.com</domain>
            <pin-set><pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf.pem"))</pin></pin-set>
          </domain-config>
        </network-security-config>
        """

    /// A loopback server presenting a certs/libraries/ chain.
    static func server(_ chain: String, key: String) throws -> TLSTestServer {
        try TLSTestServer(chainPEM: LibraryCerts.path(chain), keyPath: LibraryCerts.path(key))
    }

    func withPolicyFile(targets: [String], _ body: (String) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            try directory.write("nsc.xml", text: Self.nscXML)
            try body(try directory.write("pinctl.yaml", text: Self.policyFile(targets: targets)))
        }
    }

    static let at = ["--at", TestTime.nowText]

    @Test func todaysChainPassesEveryAppAndARekeyBreaksTheTwoThatPinnedOnlyTheOldLeaf() throws {
        let server = try Self.server("leaf-chain.pem", key: "leaf.key")
        defer { server.stop() }
        let target = "127.0.0.1:\(server.port)"
        try withPolicyFile(targets: [target]) { file in
            let arguments = ["check", "--config", file, "--servername", "api.example.com"] + Self.at
            let today = try PinctlProcess.run(arguments)
            #expect(today.status == 0, "\(today)")
            #expect(today.stdout.contains("summary: nothing breaks; ios-afn, ios-alamofire, ios-trustkit, okhttp-sdk "
                + "and android pass"), "\(today)")

            try server.serve(chainPEM: LibraryCerts.path("leaf-rekeyed-chain.pem"), keyPath: LibraryCerts.path("leaf-rekeyed.key"))
            let rotated = try PinctlProcess.run(arguments)
            #expect(rotated.status == 1, "\(rotated)")
            #expect(rotated.stdout.contains("summary: this breaks ios-trustkit (3.1) on \(target) and android (5.0-5.9) "
                + "on \(target); ios-afn, ios-alamofire and okhttp-sdk pass"), "\(rotated)")
            let rows = LiveRun.lines(rotated.stdout).filter { $0.hasPrefix("  ios-") || $0.hasPrefix("  okhttp") || $0.hasPrefix("  android") }
            #expect(rows.count == 5, "\(rotated)")
            #expect(rows.contains { $0.contains("ios-trustkit") && $0.contains("REJECTED") && $0.contains("public-key-not-pinned") })
            #expect(rows.contains { $0.contains("android") && $0.contains("REJECTED") })
            #expect(rows.contains { $0.contains("okhttp-sdk") && $0.contains("TRUSTED") })
        }
    }

    @Test func jsonIsOneObjectPerTargetAndAppWithAppLibraryAndVersions() throws {
        let server = try Self.server("leaf-rekeyed-chain.pem", key: "leaf-rekeyed.key")
        defer { server.stop() }
        try withPolicyFile(targets: ["127.0.0.1:\(server.port)"]) { file in
            let result = try PinctlProcess.run(["check", "--config", file, "--servername", "api.example.com",
                                                "--format", "json"] + Self.at)
            #expect(result.status == 1, "\(result)")
            let objects = try LiveRun.objects(result.stdout)
            #expect(objects.map { $0["app"] as? String } == ["ios-afn", "ios-alamofire", "ios-trustkit", "okhttp-sdk", "android"])
            #expect(objects.map { $0["library"] as? String } == ["afnetworking", "alamofire", "trustkit", "okhttp", "nsc"])
            #expect(objects[0]["versions"] as? [String] == ["4.2", "4.3"])
            #expect(objects.map { $0["verdict"] as? String } == ["trusted", "trusted", "rejected", "trusted", "rejected"])
            #expect(objects.allSatisfy { $0["target"] as? String == "127.0.0.1:\(server.port)" })
            #expect(LiveRun.reasonCode(objects[2]) == "public-key-not-pinned")
            #expect((objects[3]["trust"] as? [String: Any])?["basis"] as? String == "pin-matched")
        }
    }

    @Test func verifyWithAPolicyFileJudgesTheNextChainOffline() throws {
        try withPolicyFile(targets: []) { file in
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path("leaf-other-root-chain.pem"),
                                                "--host", "api.example.com"] + Self.at)
            // A chain from another CA, which the store does not hold: every app's platform validation fails first.
            #expect(result.status == 1, "\(result)")
            #expect(LiveRun.lines(result.stdout).filter { $0.contains("REJECTED  untrusted-chain") }.count == 5, "\(result)")
            #expect(result.stdout.contains("summary: this breaks ios-afn (4.2, 4.3) on \(LibraryCerts.path("leaf-other-root-chain.pem")), "
                + "ios-alamofire on"), "\(result)")
        }
    }

    @Test func aTargetNoAppCoversIsAnInputError() throws {
        try withPolicyFile(targets: []) { file in
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path("leaf-chain.pem"),
                                                "--host", "other.example.org"] + Self.at)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("no app of \(file) covers other.example.org"), "\(result)")
            // No app was judged: no summary line (it said "summary: nothing breaks; " with no app).
            #expect(!result.stdout.contains("summary:"), "\(result)")
        }
    }

    @Test func withoutTargetsCheckUsesTheFilesTargetsAndTheMostSevereCodeWins() throws {
        let good = try Self.server("leaf-chain.pem", key: "leaf.key")
        defer { good.stop() }
        // A refused port: exit 3 for that target, but the rejection elsewhere (1) is more severe.
        let rotated = try Self.server("leaf-rekeyed-chain.pem", key: "leaf-rekeyed.key")
        defer { rotated.stop() }
        try withPolicyFile(targets: ["127.0.0.1:\(good.port)", "127.0.0.1:\(rotated.port)"]) { file in
            let result = try PinctlProcess.run(["check", "--config", file, "--servername", "api.example.com",
                                                "--format", "json"] + Self.at)
            #expect(result.status == 1, "\(result)")
            let objects = try LiveRun.objects(result.stdout)
            #expect(objects.count == 10)
            #expect(Set(objects.compactMap { $0["target"] as? String }).count == 2)
        }
    }

    @Test func aBrokenPolicyFileExitsTwoNamingFileLineAndKey() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: "apps:\n  - name: a\n    library: afnetworking\n    policy: {mode: certificate, pins: [sha256/AAAA]}\n")
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", LibraryCerts.path("leaf-chain.pem")])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(file):4:"), "\(result)")
            #expect(result.stderr.contains("apps[0].policy.pins[0]"), "\(result)")
        }
    }

    @Test func policyFlagsCannotBeGivenWithAPolicyFile() throws {
        let result = try PinctlProcess.run(["verify", "--config", "x.yaml", "--mode", "publickey", "--chain", "leaf.pem"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--mode cannot be given with it"), "\(result)")
    }
}
