import OpenSSLWrapper
import Testing
import TestSupport
import Transport

/// A server that asks for a client certificate: pinctl sends none, notices that it was asked, and still returns the
/// chain the server presented when the server then ends the handshake.
@Suite("TLSClient and client-certificate requests", .serialized)
struct ClientCertificateRequestTests {
    static let chain = ["leaf.pem", "intermediate-ca.pem"]

    struct Setting: Sendable, CustomTestStringConvertible {
        let clientCertificate: TestServerOptions.ClientCertificate
        let version: TestServerOptions.MaximumVersion
        /// What OpenSSL names the version the handshake must negotiate.
        let versionName: String

        var testDescription: String { "\(clientCertificate), up to \(versionName)" }
    }

    @Test func tls12ServerRequiringACertificateEndsTheHandshakeYetItsChainIsReturned() throws {
        let server = try server(.init(clientCertificate: .required, maximumVersion: .tls12))
        defer { server.stop() }

        let result = try handshake(with: server)

        #expect(try expectedDER() == result.presented.map(\.derBytes))
        #expect(result.protocolVersion == "TLSv1.2")
        #expect(!result.cipher.isEmpty && result.cipher != "(none)", "the cipher was chosen in the ServerHello")
        #expect(result.clientCertificateRequested)
        #expect(!result.handshakeCompleted)
        let failure = try #require(result.handshakeFailure)
        #expect(failure.message.contains("127.0.0.1:\(server.port)"), "\(failure.message)")
        // The server's alert, or a reset when the server's close overtakes it (it closes with our flight unread).
        #expect(failure.message.contains("sslv3 alert handshake failure") || failure.kind == .reset,
                "\(failure.kind): \(failure.message)")
        #expect(server.handshakesCompleted == 0, "the server refused the handshake")
    }

    @Test func tls13ServerRequiringACertificateLetsTheClientFinishAndTheRequestIsNoted() throws {
        let server = try server(.init(clientCertificate: .required, maximumVersion: .tls13))
        defer { server.stop() }

        let result = try handshake(with: server)

        #expect(try expectedDER() == result.presented.map(\.derBytes))
        #expect(result.protocolVersion == "TLSv1.3")
        #expect(result.clientCertificateRequested)
        #expect(result.handshakeCompleted, "\(result.handshakeFailure?.message ?? "")")
        #expect(server.handshakesCompleted == 0, "the server refused the handshake")
    }

    @Test(arguments: [
        Setting(clientCertificate: .requested, version: .tls12, versionName: "TLSv1.2"),
        Setting(clientCertificate: .requested, version: .tls13, versionName: "TLSv1.3"),
        Setting(clientCertificate: .notRequested, version: .tls12, versionName: "TLSv1.2"),
        Setting(clientCertificate: .notRequested, version: .tls13, versionName: "TLSv1.3"),
    ])
    func aServerThatDoesNotRequireACertificateCompletesAndSaysWhetherItAsked(_ setting: Setting) throws {
        let server = try server(.init(clientCertificate: setting.clientCertificate, maximumVersion: setting.version))
        defer { server.stop() }

        let result = try handshake(with: server)

        #expect(try expectedDER() == result.presented.map(\.derBytes))
        #expect(result.protocolVersion == setting.versionName)
        #expect(result.clientCertificateRequested == (setting.clientCertificate == .requested))
        #expect(result.handshakeCompleted)
        #expect(result.handshakeFailure == nil)
    }

    @Test func aFailureAfterTheChainWithoutARequestIsStillAnError() throws {
        let server = try server(.init(maximumVersion: .tls12, failsBeforeFinished: true))
        defer { server.stop() }

        #expect {
            _ = try handshake(with: server)
        } throws: { error in
            guard let error = error as? TLSConnectionError else { return false }
            // The server's alert, or a reset when its close overtakes the alert.
            return error.message.contains("alert internal error") || error.kind == .reset
        }
    }

    private func server(_ options: TestServerOptions) throws -> TLSTestServer {
        try TLSTestServer(chainPEM: Self.chain.map(Certs.path), keyPath: Certs.path("leaf.key"), options: options)
    }

    private func handshake(with server: TLSTestServer) throws -> TLSHandshakeResult {
        try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: .init(
            serverName: "pinning.test", timeout: 5, family: .ipv4))
    }

    private func expectedDER() throws -> [[UInt8]] {
        try Self.chain.flatMap { try CertificateParser.certificates(atPath: Certs.path($0)) }.map(\.derBytes)
    }
}
