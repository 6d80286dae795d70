import OpenSSLWrapper
import Testing
import TestSupport

/// `pinctl serve` reads each certificate servers present out of its DER once (#22): the next handshake that presents
/// the same DER gets the same `X509Certificate`, and anything else is read afresh. certs/leaf-chain.pem is the leaf
/// and the intermediate; leaf-renewed.pem is a new leaf under that intermediate (`openssl x509 -noout -subject
/// -issuer`).
@Suite("Certificate memo", .serialized)
struct CertificateMemoTests {
    static func handshake(_ server: TLSTestServer, memo: CertificateMemo?) throws -> [X509Certificate] {
        var options = TLSConnectOptions(serverName: "pinning.test", timeout: 5, family: .ipv4)
        options.certificateMemo = memo
        return try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: options).presented
    }

    /// The certificates of the files, as the fixture loader reads them.
    static func der(_ files: [String]) -> [[UInt8]] { files.flatMap(Certs.load).map(\.derBytes) }

    @Test func theSameChainFromTheNextHandshakeIsTheSameCertificates() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }
        let memo = CertificateMemo(capacity: 8)

        let first = try Self.handshake(server, memo: memo)
        let second = try Self.handshake(server, memo: memo)

        #expect(Self.der(["leaf-chain.pem"]) == second.map(\.derBytes))
        #expect(second.count == 2 && zip(first, second).allSatisfy { $0 === $1 })
        #expect(memo.hits == 2)
    }

    @Test func withoutAMemoEveryHandshakeReadsItsCertificatesAfresh() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let first = try Self.handshake(server, memo: nil)
        let second = try Self.handshake(server, memo: nil)

        #expect(first == second)
        #expect(zip(first, second).allSatisfy { $0 !== $1 })
    }

    @Test func aRenewedLeafIsReadAfreshAndTheIntermediateItSharesIsRemembered() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }
        let memo = CertificateMemo(capacity: 8)
        let before = try Self.handshake(server, memo: memo)

        try server.serve(chainPEM: [Certs.path("leaf-renewed.pem"), Certs.path("intermediate-ca.pem")],
                         keyPath: Certs.path("leaf.key"))
        let after = try Self.handshake(server, memo: memo)

        #expect(Self.der(["leaf-renewed.pem", "intermediate-ca.pem"]) == after.map(\.derBytes))
        try #require(before.count == 2 && after.count == 2)
        #expect(after[0] !== before[0] && after[1] === before[1])
        #expect(memo.hits == 1)
    }

    /// Capacity 1 keeps only the last certificate read: a chain of two pushes each out before it is met again.
    @Test func theOldestCertificateGoesOnceCapacityAreHeld() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }
        let memo = CertificateMemo(capacity: 1)

        _ = try Self.handshake(server, memo: memo)
        let again = try Self.handshake(server, memo: memo)

        #expect(Self.der(["leaf-chain.pem"]) == again.map(\.derBytes))
        #expect(memo.hits == 0)
    }
}
