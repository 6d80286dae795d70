import Foundation
import OpenSSLWrapper
import Testing
import TestSupport
import Transport

/// A server may present at most 1 MiB of certificates: more is an error, not a crash or an unbounded copy.
@Suite struct OversizedChainTests {
    @Test func aChainOverOneMebibyteIsRefusedWithAHandshakeError() throws {
        try TemporaryDirectory.with { directory in
            // One self-signed certificate carrying a 1.06 MB comment: under OpenSSL's own buffer cap (set a little
            // above 1 MiB) but over pinctl's limit, so pinctl's check is the one that decides.
            let config = "[req]\ndistinguished_name=dn\nprompt=no\nx509_extensions=ext\n[dn]\nCN=huge.test\n"
                + "[ext]\nsubjectAltName=DNS:huge.test\nnsComment=" + String(repeating: "A", count: 1_060_000) + "\n"
            try directory.write("huge.cnf", text: config)
            let openssl = try Subprocess.run(
                "openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                            "-keyout", directory.path("huge.key"), "-out", directory.path("huge.pem"),
                            "-config", directory.path("huge.cnf"), "-days", "1"])
            try #require(openssl.status == 0, "openssl req could not make the oversized certificate: \(openssl)")

            let server = try TLSTestServer(chainPEM: directory.path("huge.pem"), keyPath: directory.path("huge.key"))
            defer { server.stop() }
            let options = TLSConnectOptions(serverName: "huge.test", timeout: 10, family: .any)
            do throws(TLSConnectionError) {
                let result = try TLSClient.handshake(host: "127.0.0.1", port: server.port, options: options)
                Issue.record("a \(result.presented.first?.derBytes.count ?? 0)-byte chain was accepted")
            } catch {
                #expect(error.kind == .handshake)
                #expect(error.message.contains("more than 1 MiB is refused"), "\(error.message)")
                #expect(error.message.contains("127.0.0.1:\(server.port)"))
            }
        }
    }
}
