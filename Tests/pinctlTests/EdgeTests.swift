import Foundation
import Testing
import TestSupport

/// `check --key-types`, `--tls`, `--all-addresses` and `--resolve` against `openssl s_server` peers: one result per
/// edge, each with its `edge` object, the target failing when any edge fails, and a summary naming the odd edge.
@Suite struct EdgeTests {
    /// s_server presenting the RSA leaf of the Other PKI (-cert) and the ECDSA leaf of the main PKI (-dcert), each
    /// with its own intermediate.
    static func dualServer() throws -> OpenSSLServer {
        try OpenSSLServer(["-cert", "other-leaf.pem", "-key", "other-leaf.key", "-cert_chain", "other-intermediate-ca.pem",
                           "-dcert", "leaf.pem", "-dkey", "leaf.key", "-dcert_chain", "intermediate-ca.pem"])
    }

    static func fingerprint(_ file: String) -> String {
        Certs.opensslField(file, ["-fingerprint", "-sha256"]).replacingOccurrences(of: ":", with: "")
    }

    static func edge(_ object: [String: Any]) -> [String: Any]? { object["edge"] as? [String: Any] }

    static func leafFingerprint(_ object: [String: Any]) -> String? {
        ((object["chain"] as? [[String: Any]])?.first)?["sha256"] as? String
    }

    @Test func eachKeyTypeIsAnEdgeWithItsOwnChain() throws {
        let server = try Self.dualServer()
        defer { server.stop() }
        let arguments = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--key-types", "rsa,ecdsa"]
            + LiveRun.anchors

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        // The RSA chain leads to the Other PKI's root, which is not an anchor: that edge fails the target.
        #expect(json.status == 1, "\(json)")
        let objects = try LiveRun.objects(json.stdout)
        try #require(objects.count == 2, "\(json)")
        #expect(objects.map { Self.edge($0)?["keyType"] as? String } == ["rsa", "ecdsa"])
        #expect(objects.map { Self.edge($0)?["address"] as? String } == ["127.0.0.1", "127.0.0.1"])
        #expect(objects.allSatisfy { Self.edge($0)?.keys.contains("tlsVersion") == true && Self.edge($0)?["tlsVersion"] is NSNull })
        #expect(objects.map(Self.leafFingerprint) == [Self.fingerprint("other-leaf.pem"), Self.fingerprint("leaf.pem")])
        #expect(objects.map { $0["verdict"] as? String } == ["rejected", "trusted"])
        #expect(LiveRun.reasonCode(objects[0]) == "untrusted-chain")

        let text = try PinctlProcess.run(arguments)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("  edge: RSA on 127.0.0.1\n"), "\(text)")
        #expect(text.stdout.contains("  edge: ECDSA on 127.0.0.1\n"), "\(text)")
        let summary = try #require(LiveRun.lines(text.stdout).last.map(String.init))
        #expect(summary.hasPrefix("edges of 127.0.0.1:\(server.port): the RSA chain serves a different leaf (CN=pinning.test, "
            + "key \(LiveRun.pin(of: "other-leaf.pem"))) and a different intermediate (CN=Other Test Intermediate CA,"
            + "O=Other Test) than the ECDSA chain (rejected where those are trusted)"), "\(summary)")
    }

    @Test func withoutKeyTypesTheTargetIsOneResultWithoutAnEdge() throws {
        let server = try Self.dualServer()
        defer { server.stop() }
        let json = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test",
                                          "--format", "json"] + LiveRun.anchors)
        let object = try LiveRun.object(json.stdout)
        #expect(object["edge"] == nil, "\(json)")
    }

    @Test func eachVersionIsAnEdgeAndAVersionTheServerLacksFailsTheTarget() throws {
        let only12 = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key", "-cert_chain", "intermediate-ca.pem",
                                        "-tls1_2"])
        defer { only12.stop() }
        let only13 = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key", "-cert_chain", "intermediate-ca.pem",
                                        "-tls1_3"])
        defer { only13.stop() }
        for (server, works, fails) in [(only12, "1.2", "1.3"), (only13, "1.3", "1.2")] {
            let arguments = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test", "--tls", "1.2,1.3",
                             "--timeout", "5"] + LiveRun.anchors
            let json = try PinctlProcess.run(arguments + ["--format", "json"])
            #expect(json.status == 3, "\(json)")
            let objects = try LiveRun.objects(json.stdout)
            try #require(objects.count == 2, "\(json)")
            let good = try #require(objects.first { Self.edge($0)?["tlsVersion"] as? String == works })
            #expect(good["verdict"] as? String == "trusted")
            #expect((good["tls"] as? [String: Any])?["version"] as? String == "TLSv" + works)
            let bad = try #require(objects.first { Self.edge($0)?["tlsVersion"] as? String == fails })
            #expect(bad["verdict"] as? String == "error")
            #expect(LiveRun.reasonCode(bad) == "handshake", "\(bad)")
            #expect(((bad["reason"] as? [String: Any])?["message"] as? String)?.contains("only TLS \(fails)") == true)

            let text = try PinctlProcess.run(arguments)
            #expect(text.stdout.contains("the chain over TLS \(fails) failed (handshake)"), "\(text)")
            #expect(text.stderr.contains("edge TLS \(fails): "), "\(text)")
        }
    }

    /// Two servers on one port of 127.0.0.1 and 127.0.0.2 under the name pinning.test, which DNS does not know.
    /// The kernel chooses the first port on 127.0.0.1 only, so the same port on 127.0.0.2 may be taken (CI saw it
    /// once, with the suite's other servers about): then both start again on a new port, a few times at most.
    static func twoAddresses() throws -> (OpenSSLServer, OpenSSLServer) {
        var attempt = 1
        while true {
            let first = try OpenSSLServer(["-cert", "leaf.pem", "-key", "leaf.key", "-cert_chain",
                                           "intermediate-ca.pem"])
            do {
                let second = try OpenSSLServer(["-cert", "leaf-rekeyed.pem", "-key", "leaf-rekeyed.key",
                                                "-cert_chain", "intermediate-ca.pem"],
                                               host: "127.0.0.2", port: first.port)
                return (first, second)
            } catch let error as TestServerError where attempt < 5 && error.description.contains("in use") {
                first.stop()
                attempt += 1
            }
        }
    }

    @Test func everyResolvedAddressIsAnEdge() throws {
        let (first, second) = try Self.twoAddresses()
        defer { first.stop(); second.stop() }
        let port = first.port
        let arguments = ["check", "pinning.test:\(port)", "--resolve", "pinning.test:\(port):127.0.0.1,127.0.0.2",
                         "--all-addresses", "--mode", "publickey", "--pins", "pins/leaf.pin"] + LiveRun.anchors

        let json = try PinctlProcess.run(arguments + ["--format", "json"])
        #expect(json.status == 1, "\(json)")
        let objects = try LiveRun.objects(json.stdout)
        #expect(objects.map { Self.edge($0)?["address"] as? String } == ["127.0.0.1", "127.0.0.2"])
        #expect(objects.map { $0["verdict"] as? String } == ["trusted", "rejected"])
        #expect(objects.map(Self.leafFingerprint) == [Self.fingerprint("leaf.pem"), Self.fingerprint("leaf-rekeyed.pem")])

        let text = try PinctlProcess.run(arguments)
        #expect(text.stdout.contains("edges of pinning.test:\(port): the chain on 127.0.0.2 serves a different leaf "
            + "(CN=pinning.test, key \(LiveRun.pin(of: "leaf-rekeyed.pem"))) than the chain on 127.0.0.1 (rejected "
            + "where those are trusted)"), "\(text)")
    }

    @Test func resolveWithoutAllAddressesTriesTheAddressesInOrder() throws {
        let (first, second) = try Self.twoAddresses()
        defer { first.stop(); second.stop() }
        let port = first.port
        // Nothing listens on 127.0.0.3: its connection is refused, and the next address is tried.
        for (order, fingerprint) in [("127.0.0.1,127.0.0.2", "leaf.pem"), ("127.0.0.2,127.0.0.1", "leaf-rekeyed.pem"),
                                     ("127.0.0.3,127.0.0.2", "leaf-rekeyed.pem")] {
            let json = try PinctlProcess.run(["check", "pinning.test:\(port)", "--resolve", "pinning.test:\(port):\(order)",
                                              "--format", "json"] + LiveRun.anchors)
            #expect(json.status == 0, "\(json)")
            let object = try LiveRun.object(json.stdout)
            #expect(Self.leafFingerprint(object) == Self.fingerprint(fingerprint), "\(order)")
            #expect(object["edge"] == nil)
        }
    }

    @Test func allThreeFlagsMultiplyTheEdges() throws {
        let server = try Self.dualServer()
        defer { server.stop() }
        let port = server.port
        let json = try PinctlProcess.run(["check", "pinning.test:\(port)", "--resolve", "pinning.test:\(port):127.0.0.1",
                                          "--all-addresses", "--key-types", "ecdsa,rsa", "--tls", "1.3,1.2",
                                          "--format", "json"] + LiveRun.anchors)
        let objects = try LiveRun.objects(json.stdout)
        let edges = objects.compactMap(Self.edge).map {
            "\($0["address"] as? String ?? "-") \($0["keyType"] as? String ?? "-") \($0["tlsVersion"] as? String ?? "-")"
        }
        #expect(edges == ["127.0.0.1 ecdsa 1.3", "127.0.0.1 ecdsa 1.2", "127.0.0.1 rsa 1.3", "127.0.0.1 rsa 1.2"])
        #expect(objects.map { ($0["tls"] as? [String: Any])?["version"] as? String }
            == ["TLSv1.3", "TLSv1.2", "TLSv1.3", "TLSv1.2"])
    }

    @Test(arguments: [
        ["--key-types", "dsa"], ["--tls", "1.1"], ["--tls", "1.2,"], ["--resolve", "pinning.test:443"],
        ["--resolve", "pinning.test:x:127.0.0.1"], ["--resolve", "pinning.test:443:not-an-address"],
    ])
    func aBadEdgeOptionIsAUsageError(_ flags: [String]) throws {
        let result = try PinctlProcess.run(["check", "pinning.test"] + flags)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(flags[0]), "\(result)")
    }
}
