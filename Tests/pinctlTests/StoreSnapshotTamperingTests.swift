import Foundation
import Testing
import TestSupport

/// A snapshot directory changed after scripts/build-stores.sh wrote it, or one that is not a snapshot at all:
/// `pinctl stores` and `--platform` refuse it at the file and line, quoting nothing of it (issue #32). On the
/// snapshots of StoresCommandTests.
@Suite struct StoreSnapshotTamperingTests {
    /// The hex id of a fixture's key, made by the openssl CLI: the file name the builder gives its root.
    static func rootID(_ certificate: String) throws -> String {
        try ShellPipeline.output("openssl x509 -in \(certificate) -pubkey -noout | openssl pkey -pubin -outform DER "
            + "| sha256sum | cut -c1-64")
    }

    /// With the Other root's file holding the pinctl root, `stores diff` listed the pinctl root as added at API 25.
    @Test func aRootFileSwappedForAnotherCertificateIsRefusedByDiffAndByPlatformJudging() throws {
        try StoresCommandTests.withStores { directory in
            let other = try Self.rootID("other-root-ca.pem")
            let file = directory.path("stores/roots/\(other).pem")
            try FileManager.default.removeItem(atPath: file)
            try directory.write("stores/roots/\(other).pem", bytes: Certs.bytes("root-ca.pem"))
            let diff = try PinctlProcess.run(["stores", "diff", "android@24", "android@25", "--stores", "stores"],
                                             in: directory.path)
            let verify = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at",
                                                TestTime.nowText, "--stores", directory.path("stores"), "--platform",
                                                "android@25"])
            let refusal = ".pem: holds a certificate of key SHA-256 \(try Self.rootID("root-ca.pem")), not the one its "
                + "name records: the snapshot was changed after scripts/build-stores.sh wrote it; rebuild it"

            #expect(diff.status == 2, "\(diff)")
            #expect(diff.stdout.isEmpty, "\(diff)")
            #expect(diff.stderr.contains("stores/roots/\(other)" + refusal), "\(diff)")
            #expect(verify.status == 2, "\(verify)")
            #expect(verify.stderr.contains(file.dropLast(".pem".count) + refusal), "\(verify)")
        }
    }

    /// A secret file named as a platform's membership file: an input error at its line, the secret not printed.
    @Test func aMembershipFileThatIsASecretIsRefusedWithoutQuotingIt() throws {
        try StoresCommandTests.withStores { directory in
            try directory.write("stores/android.txt", text: "ghp_R3allySecretTokenValue0123456789 \n")
            let result = try PinctlProcess.run(["stores", "android", "--stores", "stores"], in: directory.path)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("stores/android.txt:1: expected `KEY VALUE`, KEY one of version, label, "
                + "date, source or root, a # comment or a blank line"), "\(result)")
            #expect(!result.stderr.contains("R3ally"), "\(result)")
        }
    }
}
