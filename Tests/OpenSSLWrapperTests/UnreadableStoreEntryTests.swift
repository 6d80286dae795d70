import Foundation
import OpenSSLWrapper
import TestSupport
import Testing

/// A trust store entry OpenSSL loads but pinctl cannot read back is skipped with a warning, never a crash.
@Suite struct UnreadableStoreEntryTests {
    @Test func malformedNotBeforeInACAPathIsAWarningAndAFailureNamingIt() throws {
        try TemporaryDirectory.with { directory in
            try MalformedStore.make(in: directory.path)
            let store = try TrustStore.caFiles([], directories: [directory.path])
            let leaf = Certs.one("leaf.pem")
            let intermediate = Certs.one("intermediate-ca.pem")
            let result = ChainVerifier.verify(
                leaf: leaf, untrusted: [intermediate], store: store,
                options: VerificationOptions(time: TestTime.now, domain: "pinning.test", checksServerIdentity: true))

            // openssl verify -CApath DIR -untrusted intermediate-ca.pem leaf.pem: error 13 at 2 depth lookup.
            let failure = try #require(result.failure)
            #expect(failure.code == 13)
            #expect(failure.depth == 2)
            #expect(failure.message == "format error in certificate's notBefore field")
            #expect(failure.certificate == nil)
            #expect(failure.subject == MalformedStore.subject)
            #expect(result.chain == [leaf, intermediate], "the unreadable root is left out")
            #expect(result.warnings.count == 1, "\(result.warnings)")
            let warning = result.warnings.first ?? ""
            let expected = "the CA directory \(directory.path): the certificate \(MalformedStore.subject) cannot be read"
            #expect(warning.hasPrefix(expected), "\(warning)")
            #expect(warning.contains("notBefore"), "\(warning)")
        }
    }
}
