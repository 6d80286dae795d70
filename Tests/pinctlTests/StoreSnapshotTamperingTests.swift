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

    /// The root file of `fixture`'s key made to hold `holding` instead; its path.
    static func swap(_ fixture: String, for holding: String, in directory: TemporaryDirectory) throws -> String {
        let id = try rootID(fixture)
        let file = directory.path("stores/roots/\(id).pem")
        try FileManager.default.removeItem(atPath: file)
        try directory.write("stores/roots/\(id).pem", bytes: Certs.bytes(holding))
        return file
    }

    /// leaf-chain.pem (to the pinctl root) judged on android@25 of the snapshot in `directory`.
    static func verifyOnAPI25(_ directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                               "--stores", directory.path("stores"), "--platform", "android@25"])
    }

    /// With the Other root's file holding the pinctl root, `stores diff` listed the pinctl root as added at API 25.
    @Test func aRootFileSwappedForAnotherCertificateIsRefusedByDiffAndByPlatformJudging() throws {
        try StoresCommandTests.withStores { directory in
            let other = try Self.rootID("other-root-ca.pem")
            let file = try Self.swap("other-root-ca.pem", for: "root-ca.pem", in: directory)
            let diff = try PinctlProcess.run(["stores", "diff", "android@24", "android@25", "--stores", "stores"],
                                             in: directory.path)
            let verify = try Self.verifyOnAPI25(directory)
            let refusal = ".pem: holds a certificate of key SHA-256 \(try Self.rootID("root-ca.pem")), not the one its "
                + "name records: the snapshot was changed after scripts/build-stores.sh wrote it; rebuild it"

            #expect(diff.status == 2, "\(diff)")
            #expect(diff.stdout.isEmpty, "\(diff)")
            #expect(diff.stderr.contains("stores/roots/\(other)" + refusal), "\(diff)")
            // The builder's index (roots.index) gives every root's names: the chain never reaches the Other root, so
            // its file is never read; without the index every root is read for its subject, and it is refused.
            #expect(verify.status == 0, "\(verify)")
            try FileManager.default.removeItem(atPath: directory.path("stores/roots.index"))
            let unindexed = try Self.verifyOnAPI25(directory)
            #expect(unindexed.status == 2, "\(unindexed)")
            #expect(unindexed.stderr.contains(file.dropLast(".pem".count) + refusal), "\(unindexed)")
        }
    }

    /// With the index, a root is checked when a chain can reach it: the pinctl root's file holding the Other root is
    /// an input error naming the file, as without the index (left out of the store, it made the chain "rejected").
    @Test func aRootTheChainReachesIsCheckedWhenItIsRead() throws {
        try StoresCommandTests.withStores { directory in
            let file = try Self.swap("root-ca.pem", for: "other-root-ca.pem", in: directory)
            let verify = try Self.verifyOnAPI25(directory)

            #expect(verify.status == 2, "\(verify)")
            #expect(verify.stdout.isEmpty, "\(verify)")
            #expect(verify.stderr == "pinctl: \(file): holds a certificate of key SHA-256 "
                + "\(try Self.rootID("other-root-ca.pem")), not the one its name records: the snapshot was changed "
                + "after scripts/build-stores.sh wrote it; rebuild it\n", "\(verify)")
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
