import Foundation
import Testing
import TestSupport

/// Certificates signed with RSASSA-PSS, checked with an RSA key the built-in key methods decoded (#22), give the
/// verdicts `openssl verify -CAfile root.pem` gives, asked in each test: OK for both signed leaves, "certificate
/// signature failure" once a byte of the signature is flipped. The fixture PKI has no PSS signature, so the chains
/// are made here, at run time.
@Suite("RSASSA-PSS signatures")
struct RSAPSSSignatureTests {
    /// root.pem (RSA 2048, self-signed), and two leaves for pss.test it signs with PSS: ec-leaf.pem (P-256,
    /// SHA-256, salt 32) and rsa-leaf.pem (RSA 2048, SHA-384, the longest salt).
    static func makeChains(in directory: TemporaryDirectory) throws {
        let dir = directory.path
        try OpenSSLCLI.writeExtensions("ext.cnf", leafName: "pss.test", in: dir)
        try OpenSSLCLI.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "root.key", "-out", "root.pem",
                            "-subj", "/CN=PSS Root", "-days", "3650", "-config", "ext.cnf", "-extensions", "ca"],
                           in: dir)
        for (name, key, digest, salt) in [("ec-leaf", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"], "-sha256", "32"),
                                          ("rsa-leaf", ["rsa:2048"], "-sha384", "-1")] {
            try OpenSSLCLI.run(["req", "-new", "-newkey"] + key + ["-nodes", "-keyout", name + ".key",
                                "-out", name + ".csr", "-subj", "/CN=pss.test", "-config", "ext.cnf"], in: dir)
            try OpenSSLCLI.run(["x509", "-req", "-in", name + ".csr", "-CA", "root.pem", "-CAkey", "root.key",
                                "-CAcreateserial", "-days", "10", digest, "-sigopt", "rsa_padding_mode:pss",
                                "-sigopt", "rsa_pss_saltlen:" + salt, "-extfile", "ext.cnf", "-extensions", "leaf",
                                "-out", name + ".pem"], in: dir)
        }
    }

    static func verify(_ leaf: String, in directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", leaf, "--ca-file", "root.pem", "--host", "pss.test",
                               "--at", OpenSSLCLI.validTime], in: directory.path)
    }

    /// `openssl verify -CAfile root.pem FILE`: its exit status and what it printed.
    static func opensslVerify(_ file: String, in directory: TemporaryDirectory) throws -> (Int32, String) {
        let result = try Subprocess.run("openssl", ["verify", "-CAfile", "root.pem", file], in: directory.path)
        return (result.status, result.stdout + result.stderr)
    }

    @Test func leavesSignedWithPSSAreTrusted() throws {
        try TemporaryDirectory.with { directory in
            try Self.makeChains(in: directory)
            for leaf in ["ec-leaf.pem", "rsa-leaf.pem"] {
                let (status, output) = try Self.opensslVerify(leaf, in: directory)
                try #require(status == 0, "openssl verify \(leaf): \(output)")
                let result = try Self.verify(leaf, in: directory)
                #expect(result.status == 0, "\(leaf): \(result)")
                #expect(result.stdout.contains("TRUSTED"), "\(leaf): \(result)")
            }
        }
    }

    @Test func aPSSSignatureWithAFlippedByteIsRejectedNamingTheCertificate() throws {
        try TemporaryDirectory.with { directory in
            try Self.makeChains(in: directory)
            try OpenSSLCLI.run(["x509", "-in", "ec-leaf.pem", "-outform", "DER", "-out", "ec-leaf.der"],
                               in: directory.path)
            // The signature's BIT STRING is the certificate's last field: its last byte is the signature's.
            var der = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path("ec-leaf.der"))))
            der[der.count - 1] ^= 0x01
            try directory.write("tampered.der", bytes: der)
            let (status, output) = try Self.opensslVerify("tampered.der", in: directory)
            try #require(status != 0 && output.contains("certificate signature failure"), "openssl verify: \(output)")
            let result = try Self.verify("tampered.der", in: directory)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains(
                "untrusted chain: certificate #0 (CN=pss.test): certificate signature failure"), "\(result)")
        }
    }
}
