import Foundation
import Testing
import TestSupport

/// A host, the chain a server presents for it, and the verdict TrustKit gives the shop app (by hand, from its
/// Info.plist: api.example.com pins the leaf and its successor; example.com and below pin both intermediates until
/// 2027-06-30; status.example.com is excluded; cdn.example.com's report-only pin expired on 2026-05-01).
struct TKGateRow: Sendable, CustomTestStringConvertible {
    let host: String
    let chain: String
    let verdict: String
    /// The trust basis of a trusted verdict, the reason code of a rejected one.
    let code: String

    var testDescription: String { "\(host) \(chain) → \(verdict) \(code)" }
}

private let gateRows = [
    TKGateRow(host: "api.example.com", chain: "leaf-chain.pem", verdict: "trusted", code: "pin-matched"),
    TKGateRow(host: "api.example.com", chain: "leaf-rekeyed-chain.pem", verdict: "trusted", code: "pin-matched"),
    TKGateRow(host: "api.example.com", chain: "leaf-other-intermediate-chain.pem", verdict: "rejected",
              code: "public-key-not-pinned"),
    TKGateRow(host: "www.example.com", chain: "leaf-other-intermediate-chain.pem", verdict: "trusted",
              code: "pin-matched"),
    TKGateRow(host: "www.example.com", chain: "leaf-other-root-chain.pem", verdict: "rejected",
              code: "untrusted-chain"),
    TKGateRow(host: "shop.example.com", chain: "wildcard-leaf-chain.pem", verdict: "trusted", code: "pin-matched"),
    TKGateRow(host: "status.example.com", chain: "wildcard-leaf-chain.pem", verdict: "trusted", code: "not-pinned"),
    TKGateRow(host: "cdn.example.com", chain: "wildcard-leaf-chain.pem", verdict: "trusted", code: "failed-open"),
]

/// End-to-end: apps whose `config:` is the shop app's TrustKit configuration, in each shape, judged beside the same
/// policy written inline and beside what `config import` printed for it.
@Suite struct TrustKitConfigGateTests {
    static let apps = ["imported", "plist", "binary", "alone", "json", "inline"]

    /// The policy file, in a temporary directory, with the entry `config import` prints for Info.plist.
    func withPolicyFile(_ body: (String) throws -> Void) throws {
        let imported = try PinctlProcess.run(["config", "import", TrustKitFixtures.relative("Info.plist"), "--library",
                                              "trustkit", "--name", "imported"], in: Certs.root)
        try #require(imported.status == 0, "\(imported)")
        func config(_ name: String, _ file: String) -> String {
            "  - name: \(name)\n    library: trustkit\n    config: \(TrustKitFixtures.path(file))\n"
        }
        let text = "version: 1\nanchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }\napps:\n"
            + imported.stdout + config("plist", "Info.plist") + config("binary", "Info-binary.plist")
            + config("alone", "TSKConfiguration.plist") + config("json", "TSKConfiguration.json")
            + "  - name: inline\n    library: trustkit\n" + TrustKitFixtures.inlinePolicy(indent: 4)
        try TemporaryDirectory.with { directory in try body(try directory.write("pinctl.yaml", text: text)) }
    }

    func expectEveryApp(_ result: PinctlProcess.Result, _ row: TKGateRow,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let objects = try LiveRun.objects(result.stdout, sourceLocation: sourceLocation)
        #expect(objects.compactMap { $0["app"] as? String } == Self.apps, "\(result)", sourceLocation: sourceLocation)
        for object in objects {
            let code = object["verdict"] as? String == "trusted"
                ? (object["trust"] as? [String: Any])?["basis"] as? String : LiveRun.reasonCode(object)
            #expect(object["verdict"] as? String == row.verdict && code == row.code,
                    "\(object["app"] ?? "?"): \(object["verdict"] ?? "?") \(code ?? "?")",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("verify --config: every shape judges as the inline policy", arguments: gateRows)
    func everyShapeOfTheConfigurationJudgesAsTheInlinePolicy(_ row: TKGateRow) throws {
        try withPolicyFile { file in
            let result = try PinctlProcess.run(["verify", "--config", file, "--chain", row.chain, "--host", row.host,
                                                "--at", TestTime.nowText, "--format", "json"],
                                               in: LibraryCerts.directory)
            #expect(result.status == (row.verdict == "trusted" ? 0 : 1), "\(result)")
            try expectEveryApp(result, row)
        }
    }

    @Test func checkConfigAgainstALiveServerJudgesEveryShapeAlike() throws {
        let server = try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"),
                                       keyPath: LibraryCerts.path("leaf.key"))
        defer { server.stop() }
        try withPolicyFile { file in
            let arguments = ["check", "--config", file, "127.0.0.1:\(server.port)", "--servername", "api.example.com",
                             "--at", TestTime.nowText, "--format", "json"]
            let today = try PinctlProcess.run(arguments)
            #expect(today.status == 0, "\(today)")
            try expectEveryApp(today, gateRows[0])

            try server.serve(chainPEM: LibraryCerts.path("leaf-other-intermediate-chain.pem"),
                             keyPath: LibraryCerts.path("leaf-other-intermediate.key"))
            let rotated = try PinctlProcess.run(arguments)
            #expect(rotated.status == 1, "\(rotated)")
            try expectEveryApp(rotated, gateRows[2])
        }
    }
}
