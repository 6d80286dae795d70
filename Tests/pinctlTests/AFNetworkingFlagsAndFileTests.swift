import Foundation
import Testing
import TestSupport

/// One AFNetworking policy given by flags and by a policy file comes to one result: both are built by the library's
/// definition, so a rule of the library (hash pins in certificate mode) holds alike (issue 18).
@Suite struct AFNetworkingFlagsAndFileTests {
    /// Certificate mode pinning the root certificate, plus a hash pin (leaf.pem's key), which certificate mode cannot
    /// use: AFNetworking compares certificates (`[self.pinnedCertificates containsObject:trustChainCertificate]`).
    static let flags = ["--mode", "certificate", "--pins", "root-ca.pem", "--pins", "pins/leaf.pin"]

    static func policyFile(host: String) -> String {
        """
        version: 1
        anchors: { ca-files: [\(Certs.path("root-ca.pem"))] }
        apps:
          - name: ios-afn
            library: afnetworking
            hosts: [\(host)]
            policy: { mode: certificate, pins: [\(Certs.path("root-ca.pem")), \(Certs.path("pins/leaf.pin"))] }
        """
    }

    /// What both paths must say, written by hand: trusted by the pinned root, the one certificate counted as the
    /// policy's pins, the hash pin named as ignored, and (the root being the only pin) no backup.
    static let warnings = [
        "1 hash pin(s) ignored: mode certificate compares whole certificates",
        "no backup pin: every pin is in today's chain: a new CA would break this policy",
    ]

    static func expectSameResult(_ result: PinctlProcess.Result, _ path: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.status == 0, "\(path): \(result)", sourceLocation: sourceLocation)
        let object = try LiveRun.object(result.stdout, sourceLocation: sourceLocation)
        #expect(object["verdict"] as? String == "trusted", "\(path)", sourceLocation: sourceLocation)
        let policy = try #require(object["policy"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(policy["mode"] as? String == "certificate", "\(path)", sourceLocation: sourceLocation)
        #expect(policy["pins"] as? Int == 1, "\(path)", sourceLocation: sourceLocation)
        #expect(object["warnings"] as? [String] == warnings, "\(path)", sourceLocation: sourceLocation)
    }

    @Test func verifyGivesTheSameVerdictPinCountAndWarningByFlagsAndByFile() throws {
        let chain = ["--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText, "--format", "json"]
        let byFlags = try PinctlProcess.run(["verify"] + chain + Self.flags + ["--ca-file", "root-ca.pem"])
        try Self.expectSameResult(byFlags, "verify by flags")
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(host: "pinning.test"))
            let byFile = try PinctlProcess.run(["verify", "--config", file] + chain)
            try Self.expectSameResult(byFile, "verify --config")
        }
    }

    @Test func checkGivesTheSameVerdictPinCountAndWarningByFlagsAndByFile() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let target = ["127.0.0.1:\(server.port)", "--servername", "pinning.test", "--at", TestTime.nowText,
                      "--format", "json"]
        let byFlags = try PinctlProcess.run(["check"] + target + Self.flags + ["--ca-file", "root-ca.pem"])
        try Self.expectSameResult(byFlags, "check by flags")
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: Self.policyFile(host: "pinning.test"))
            let byFile = try PinctlProcess.run(["check", "--config", file] + target)
            try Self.expectSameResult(byFile, "check --config")
        }
    }

    @Test func onlyHashPinsInCertificateModeAreRefusedByFlagsAndByFile() throws {
        let byFlags = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test",
                                             "--mode", "certificate", "--pins", "pins/leaf.pin"])
        #expect(byFlags.status == 2, "\(byFlags)")
        #expect(byFlags.stderr.contains("--mode certificate compares whole certificates: hash pins"), "\(byFlags)")
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: ios-afn
                    library: afnetworking
                    policy: { mode: certificate, pins: [\(Certs.path("pins/leaf.pin"))] }
                """)
            let byFile = try PinctlProcess.run(["verify", "--config", file, "--chain", "leaf-chain.pem",
                                                "--host", "pinning.test"])
            #expect(byFile.status == 2, "\(byFile)")
            #expect(byFile.stderr.contains("mode certificate compares whole certificates: hash pins"), "\(byFile)")
        }
    }
}
