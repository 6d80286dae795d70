import Foundation
import Testing
import TestSupport

/// A host, the chain a server presents for it, and the verdict of each app, by hand from its file: the shop app's
/// Info.plist (TrustKit), the SDK's Pinning.kt (OkHttp) and the app's network_security_config.xml (Android).
struct NativeGateRow: Sendable, CustomTestStringConvertible {
    let host: String
    let chain: String
    /// "trusted BASIS" or "rejected REASON" for ios, okhttp and android, in that order.
    let verdicts: [String]

    var testDescription: String { "\(host) \(chain)" }
}

private let nativeRows = [
    // ios: api.example.com pins leaf + leaf-rekeyed. okhttp: api.example.com pins leaf + leaf-rekeyed, **.example.com
    // pins intermediate-ca (SHA-1) and other-root-intermediate-ca. android: api.example.com pins intermediate-ca and
    // leaf-rekeyed until 2027-06-30.
    NativeGateRow(host: "api.example.com", chain: "leaf-chain.pem",
                  verdicts: ["trusted pin-matched", "trusted pin-matched", "trusted pin-matched"]),
    NativeGateRow(host: "api.example.com", chain: "leaf-rekeyed-chain.pem",
                  verdicts: ["trusted pin-matched", "trusted pin-matched", "trusted pin-matched"]),
    NativeGateRow(host: "api.example.com", chain: "leaf-other-intermediate-chain.pem",
                  verdicts: ["rejected public-key-not-pinned", "rejected public-key-not-pinned",
                             "rejected public-key-not-pinned"]),
    // ios: example.com and its subdomains pin both intermediates; android: www is not in a domain-config, so the
    // base-config's system CAs without pins.
    NativeGateRow(host: "www.example.com", chain: "wildcard-leaf-chain.pem",
                  verdicts: ["trusted pin-matched", "trusted pin-matched", "trusted not-pinned"]),
    NativeGateRow(host: "www.example.com", chain: "leaf-other-intermediate-chain.pem",
                  verdicts: ["trusted pin-matched", "rejected public-key-not-pinned", "trusted not-pinned"]),
    NativeGateRow(host: "www.example.com", chain: "leaf-other-root-chain.pem",
                  verdicts: ["rejected untrusted-chain", "rejected untrusted-chain", "rejected untrusted-chain"]),
    // ios: excluded from example.com's policy; android: the base-config.
    NativeGateRow(host: "status.example.com", chain: "wildcard-leaf-chain.pem",
                  verdicts: ["trusted not-pinned", "trusted pin-matched", "trusted not-pinned"]),
    // android: its own domain-config, anchors only uploads_ca (root-ca) and an empty pin-set.
    NativeGateRow(host: "uploads.api.example.com", chain: "wildcard-leaf-chain.pem",
                  verdicts: ["trusted pin-matched", "trusted pin-matched", "trusted not-pinned"]),
]

/// DESIGN §7: a policy file whose apps name the files they ship (an Info.plist, a Kotlin file, an Android XML)
/// judges as the same apps written inline. Android has no inline form, so both files name its XML.
@Suite struct NativeConfigGateTests {
    static let apps = ["ios", "okhttp", "android"]

    /// Android's base-config alone does not make the app cover a host (docs/policy-file.md), so its hosts are listed.
    static let android = """
          - name: android
            library: nsc
            config: \(NSCFixtures.config("network_security_config.xml"))
            hosts: [www.example.com, status.example.com]

        """

    static var native: String {
        """
        version: 1
        anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
        apps:
          - name: ios
            library: trustkit
            config: \(TrustKitFixtures.path("Info.plist"))
          - name: okhttp
            library: okhttp
            config: \(OkHttpFixtures.path("Pinning.kt"))

        """ + android
    }

    static var inline: String {
        return """
            version: 1
            anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
            apps:
              - name: ios
                library: trustkit

            """ + TrustKitFixtures.inlinePolicy(indent: 4) + """
              - name: okhttp
                library: okhttp
                policy:
                  pins:
                    api.example.com: [\(LibraryCerts.pin(of: "leaf.pem")), \(LibraryCerts.pin(of: "leaf-rekeyed.pem"))]
                    "**.example.com":
                      - \(LibraryCerts.sha1Pin(of: "intermediate-ca.pem"))
                      - \(LibraryCerts.pin(of: "other-root-intermediate-ca.pem"))

            """ + android
    }

    /// Each app's "verdict code" in the order of `apps`, from one JSON object per app.
    func verdicts(_ result: PinctlProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String]
    {
        let objects = try LiveRun.objects(result.stdout, sourceLocation: sourceLocation)
        #expect(objects.compactMap { $0["app"] as? String } == Self.apps, "\(result)", sourceLocation: sourceLocation)
        return objects.map { object in
            let verdict = object["verdict"] as? String ?? "?"
            let code = verdict == "trusted"
                ? (object["trust"] as? [String: Any])?["basis"] as? String : LiveRun.reasonCode(object)
            return "\(verdict) \(code ?? "?")"
        }
    }

    @Test("verify --config: the shipped files judge as the inline policies", arguments: nativeRows)
    func shippedFilesJudgeAsInlinePolicies(_ row: NativeGateRow) throws {
        try TemporaryDirectory.with { directory in
            for (name, text) in [("native.yaml", Self.native), ("inline.yaml", Self.inline)] {
                let file = try directory.write(name, text: text)
                let result = try PinctlProcess.run(["verify", "--config", file, "--chain", row.chain, "--host",
                                                    row.host, "--at", TestTime.nowText, "--format", "json"],
                                                   in: LibraryCerts.directory)
                #expect(try verdicts(result) == row.verdicts, "\(name)")
                let rejected = row.verdicts.contains { $0.hasPrefix("rejected") }
                #expect(result.status == (rejected ? 1 : 0), "\(name): \(result)")
            }
        }
    }

    @Test func checkAgainstALiveServerJudgesTheShippedFilesAsTheInlinePolicies() throws {
        let server = try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"),
                                       keyPath: LibraryCerts.path("leaf.key"))
        defer { server.stop() }
        try TemporaryDirectory.with { directory in
            let files = [try directory.write("native.yaml", text: Self.native),
                         try directory.write("inline.yaml", text: Self.inline)]
            func run(_ file: String) throws -> PinctlProcess.Result {
                try PinctlProcess.run(["check", "--config", file, "127.0.0.1:\(server.port)", "--servername",
                                       "api.example.com", "--at", TestTime.nowText, "--format", "json"])
            }
            for file in files {
                let today = try run(file)
                #expect(today.status == 0, "\(today)")
                #expect(try verdicts(today) == nativeRows[0].verdicts)
            }
            try server.serve(chainPEM: LibraryCerts.path("leaf-other-intermediate-chain.pem"),
                             keyPath: LibraryCerts.path("leaf-other-intermediate.key"))
            for file in files {
                let rotated = try run(file)
                #expect(rotated.status == 1, "\(rotated)")
                #expect(try verdicts(rotated) == nativeRows[2].verdicts)
            }
        }
    }
}
