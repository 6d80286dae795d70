import Foundation
import Testing
import TestSupport

/// The system store from a PEM bundle (`SSL_CERT_FILE`): indexed by subject and decoded certificate by certificate
/// as chains ask (#12), except for a bundle that holds anything but plain certificates, which OpenSSL loads whole
/// as it always did.
@Suite struct SystemStoreBundleTests {
    static let verify = ["verify", "--chain", "leaf-fullchain.pem", "--host", "pinning.test", "--at", TestTime.nowText]

    /// Runs `pinctl verify` of the fixture chain with `bundle` (PEM texts, in order) as the whole system store.
    func verify(bundle: [String]) throws -> PinctlProcess.Result {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("bundle.pem", text: bundle.joined())
            return try PinctlProcess.run(Self.verify, environment: [
                "SSL_CERT_FILE": file, "SSL_CERT_DIR": directory.path("no-such-directory"),
            ])
        }
    }

    static func pem(_ file: String) -> String { String(decoding: Certs.bytes(file), as: UTF8.self) }

    /// `other-root-ca.pem` made unreadable after its subject: the unused-bits byte of its signature BIT STRING (the
    /// certificate's last element) set to 8, which DER forbids, so OpenSSL's d2i_X509 refuses it.
    static func unreadableOtherRoot() throws -> String {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.run(["x509", "-in", Certs.path("other-root-ca.pem"), "-outform", "der", "-out", "other.der"],
                               in: directory.path)
            var der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path("other.der"))))
            // 03, its length (short form, or long form in one or two bytes), then the unused-bits byte 00, ending
            // exactly at the end of the certificate.
            let starts = der.indices.compactMap { index -> Int? in
                guard index + 4 < der.count, der[index] == 0x03 else { return nil }
                let (header, length): (Int, Int) = switch der[index + 1] {
                case 0x81: (3, Int(der[index + 2]))
                case 0x82: (4, Int(der[index + 2]) << 8 | Int(der[index + 3]))
                case let short where short < 0x80: (2, Int(short))
                default: (0, -1)
                }
                let unusedBits = index + header
                return index + header + length == der.count && der[unusedBits] == 0x00 ? unusedBits : nil
            }
            let start = try #require(starts.count == 1 ? starts.first : nil, "signature BIT STRING: \(starts)")
            der[start] = 0x08
            return "-----BEGIN CERTIFICATE-----\n"
                + Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
                + "\n-----END CERTIFICATE-----\n"
        }
    }

    @Test("the root is found among others, past comments, and the chain is trusted")
    func aRootInABundleIsFound() throws {
        let result = try verify(bundle: ["# a bundle as Debian writes one\n", Self.pem("other-root-ca.pem"),
                                         "text between blocks\n", Self.pem("root-ca.pem"), Self.pem("self-signed.pem")])
        #expect(result.status == 0, "\(result)")
        let without = try verify(bundle: [Self.pem("other-root-ca.pem"), Self.pem("self-signed.pem")])
        #expect(without.status == 1, "\(without)")
        #expect((without.stdout + without.stderr).contains("anchors: the system trust store"), "\(without)")
    }

    @Test("every certificate with the subject asked for is offered, not only the first")
    func everyCertificateOfASubjectIsOffered() throws {
        try TemporaryDirectory.with { directory in
            // Same subject as the fixture root, another key: listed first, it must not hide the real root.
            try OpenSSLCLI.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", "impostor.key", "-out", "impostor.pem", "-days", "10",
                                "-subj", "/O=pinctl Test/CN=pinctl Test Root CA"], in: directory.path)
            let impostor = try String(contentsOfFile: directory.path("impostor.pem"), encoding: .utf8)
            let result = try verify(bundle: [impostor, Self.pem("root-ca.pem")])
            #expect(result.status == 0, "\(result)")
            let alone = try verify(bundle: [impostor])
            #expect(alone.status == 1, "\(alone)")
        }
    }

    @Test("a certificate that cannot be read costs only itself, where OpenSSL's whole-file load lost every anchor")
    func anUnreadableCertificateCostsOnlyItself() throws {
        let result = try verify(bundle: [try Self.unreadableOtherRoot(), Self.pem("root-ca.pem")])
        #expect(result.status == 0, "\(result)")
    }

    @Test("a bundle with a TRUSTED CERTIFICATE block is loaded whole by OpenSSL, as before")
    func aBundleWithTrustSettingsIsLoadedWhole() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.run(["x509", "-in", Certs.path("root-ca.pem"), "-trustout", "-out", "trusted-root.pem"],
                               in: directory.path)
            let trusted = try String(contentsOfFile: directory.path("trusted-root.pem"), encoding: .utf8)
            #expect(trusted.contains("BEGIN TRUSTED CERTIFICATE"))
            let result = try verify(bundle: [Self.pem("other-root-ca.pem"), trusted])
            #expect(result.status == 0, "\(result)")
            // Loaded whole, the bundle keeps OpenSSL's rule: one certificate it cannot read, and none is loaded.
            let spoiled = try verify(bundle: [try Self.unreadableOtherRoot(), trusted])
            #expect(spoiled.status == 1, "\(spoiled)")
        }
    }
}
