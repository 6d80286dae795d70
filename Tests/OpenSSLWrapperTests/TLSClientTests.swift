import OpenSSLWrapper
import Testing
import TestSupport
import Transport

/// Handshakes with the in-process TLS server: what the client returns is exactly what the server presented.
@Suite("TLSClient handshakes", .serialized)
struct TLSClientTests {
    struct Served: Sendable, CustomTestStringConvertible {
        let chain: [String]
        let key: String

        var testDescription: String { chain.joined(separator: " + ") }
    }

    static let servedChains = [
        Served(chain: ["leaf-chain.pem"], key: "leaf.key"),
        Served(chain: ["leaf-rsa.pem", "intermediate-ca.pem"], key: "leaf-rsa.key"),
        Served(chain: ["other-leaf-chain.pem"], key: "other-leaf.key"),
    ]

    @Test(arguments: servedChains)
    func handshakeOverIPv4ReturnsTheServedChainByteForByte(_ served: Served) throws {
        let server = try TLSTestServer(chainPEM: served.chain.map(Certs.path), keyPath: Certs.path(served.key))
        defer { server.stop() }

        let result = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: "pinning.test", timeout: 5, family: .any))

        #expect(try expectedDER(served.chain) == result.presented.map(\.derBytes))
        #expect(result.protocolVersion.hasPrefix("TLSv1."))
        #expect(!result.cipher.isEmpty && result.cipher != "(none)")
        #expect(result.peerAddress == "127.0.0.1:\(server.port)")
    }

    @Test func handshakeOverIPv6ReturnsTheServedChainAndABracketedPeerAddress() throws {
        let server = try TLSTestServer(
            chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"), host: "::1")
        defer { server.stop() }

        let result = try TLSClient.handshake(host: "::1", port: server.port, options: .init(
            serverName: nil, timeout: 5, family: .ipv6))

        #expect(try expectedDER(["leaf-chain.pem"]) == result.presented.map(\.derBytes))
        #expect(result.peerAddress == "[::1]:\(server.port)")
        #expect(!result.protocolVersion.isEmpty && !result.cipher.isEmpty)
    }

    @Test func presentedChainKeepsTheServersOrderEvenWhenItIsWrong() throws {
        let misordered = ["leaf.pem", "root-ca.pem", "intermediate-ca.pem"]
        let server = try TLSTestServer(chainPEM: misordered.map(Certs.path), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let result = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: nil, timeout: 5, family: .ipv4))

        #expect(try expectedDER(misordered) == result.presented.map(\.derBytes))
    }

    @Test func aLeafServedAloneIsPresentedAlone() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let result = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: nil, timeout: 5, family: .any))

        #expect(try expectedDER(["leaf.pem"]) == result.presented.map(\.derBytes))
    }

    @Test func rotatedChainIsPresentedFromTheNextHandshake() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }
        let options = TLSConnectOptions(serverName: "pinning.test", timeout: 5, family: .any)
        let before = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: options)

        try server.serve(chainPEM: Certs.path("other-leaf-chain.pem"), keyPath: Certs.path("other-leaf.key"))
        let after = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: options)

        #expect(try expectedDER(["leaf-chain.pem"]) == before.presented.map(\.derBytes))
        #expect(try expectedDER(["other-leaf-chain.pem"]) == after.presented.map(\.derBytes))
    }

    @Test func sniCarriesTheRequestedServerName() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        _ = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: "pinning.test", timeout: 5, family: .any))

        #expect(server.serverNamesReceived == ["pinning.test"])
    }

    @Test(arguments: [nil, "", "127.0.0.1", "::1"] as [String?])
    func noSNIIsSentWithoutANameOrForAnIPLiteral(_ serverName: String?) throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        _ = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: serverName, timeout: 5, family: .any))

        // One ClientHello seen, carrying no name: an empty list would mean the server never recorded anything.
        #expect(server.serverNamesReceived == [nil])
    }

    @Test func aNameWithSeveralAddressesReachesTheOneThatListens() throws {
        // "localhost" may resolve to ::1 before 127.0.0.1; the server listens on 127.0.0.1 only, so a client that
        // gave up after the first refused address would fail here.
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let result = try TLSClient.handshake(host: "localhost", port: server.port, options: .init(
            serverName: "localhost", timeout: 5, family: .any))

        #expect(result.peerAddress == "127.0.0.1:\(server.port)")
        #expect(server.lastServerName == "localhost")
    }

    @Test func aRefusedAddressIsSkippedForTheNextOne() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }
        let refusing = try loopback(port: HostilePeer.refusedPort())
        let listening = try loopback(port: server.port)
        let twoAddresses: NameResolver.Lookup = { _, _, _ in .success(refusing + listening) }

        let result = try TLSClient.handshake(host: "two.test", port: server.port, options: .init(
            serverName: "two.test", timeout: 5, family: .any), lookup: twoAddresses)

        #expect(result.peerAddress == "127.0.0.1:\(server.port)")
        #expect(server.lastServerName == "two.test")
    }

    /// 127.0.0.1:port as the resolver returns it (literals are converted without a lookup).
    private func loopback(port: UInt16) throws -> [SocketAddress] {
        try NameResolver.resolve(host: "127.0.0.1", port: port, family: .any, deadline: Deadline(seconds: 1))
    }

    private func expectedDER(_ files: [String]) throws -> [[UInt8]] {
        try files.flatMap { try CertificateParser.certificates(atPath: Certs.path($0)) }.map(\.derBytes)
    }
}
