import Foundation
import Testing
import TestSupport

/// A snapshot directory with an index of its roots' names (`roots.index`, scripts/index-stores.sh; the Debian
/// package's copy has one) is judged exactly as the same directory without it, reading only the roots a chain can
/// reach (#33: reading all 368 roots for their subjects was a third of a run over every version). Tried on a copy of
/// the team's snapshot (`../shared/stores`, which is read-only and has no index), indexed by the script.
@Suite struct RootIndexTests {
    static let chain = "stackoverflow.com.pem"
    static let arguments = ["--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z", "--platform", "android",
                            "--platform", "ios", "--platform", "macos", "--platform", "mozilla"]

    /// A copy of the team's snapshot in `directory`/stores, indexed by scripts/index-stores.sh.
    static func indexedCopy(in directory: TemporaryDirectory) throws -> String {
        let copy = directory.path("stores")
        let shared = try SharedData.stores()
        try FileManager.default.copyItem(atPath: shared, toPath: copy)
        let indexed = try Subprocess.run(Certs.root + "/scripts/index-stores.sh", [copy], in: Certs.root)
        try #require(indexed.status == 0, "\(indexed)")
        #expect(indexed.stdout.hasPrefix("index-stores: 368 roots in "), "\(indexed)")
        return copy
    }

    /// A fresh copy of the indexed copy `indexed`, for a scenario that changes it (copying is cheap; indexing runs
    /// openssl twice a root, the most of this suite's time).
    static func copy(of indexed: String, named name: String, in directory: TemporaryDirectory) throws -> String {
        let copy = directory.path(name)
        try FileManager.default.copyItem(atPath: indexed, toPath: copy)
        return copy
    }

    /// The three scenarios below, on one indexing of the snapshot.
    @Test func anIndexedSnapshot() throws {
        try TemporaryDirectory.with { directory in
            let indexed = try Self.indexedCopy(in: directory)
            try judgesAsTheSnapshotReadingOnlyTheRootsTheChainReaches(
                try Self.copy(of: indexed, named: "reaches", in: directory), in: directory)
            try checksARootWhenTheChainReachesIt(try Self.copy(of: indexed, named: "checks", in: directory),
                                                 in: directory)
            try refusesALineItCannotReadAtItsLine(try Self.copy(of: indexed, named: "line", in: directory))
        }
    }

    func verify(_ stores: String) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["verify", "--stores", stores, "--chain", SharedData.chain(Self.chain)] + Self.arguments,
                              in: Certs.root)
    }

    /// The index's lines of the roots whose subject is `issuerHash`, OpenSSL's hash of the issuer of `certificate`
    /// (the openssl CLI's, not pinctl's).
    static func indexLines(issuerOf pem: String, in index: String) throws -> [Substring] {
        let hash = try ShellPipeline.output("openssl x509 -in \(pem) -noout -issuer_hash")
        return index.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first == Substring(hash) }
    }

    /// The same output, files opened aside, as the snapshot without its index.
    func judgesAsTheSnapshotReadingOnlyTheRootsTheChainReaches(_ copy: String, in directory: TemporaryDirectory)
        throws {
        let plain = try verify(try SharedData.stores())
        let indexed = try verify(copy)
        #expect(plain.status == 1, "\(plain)")
        #expect(indexed.status == plain.status)
        #expect(indexed.stdout == plain.stdout)
        #expect(indexed.stderr == plain.stderr)

        // The chain's top certificate is E8, issued by ISRG Root X1: the index names the roots of that subject.
        let e8 = directory.path("e8.pem")
        try ShellPipeline.output("openssl crl2pkcs7 -nocrl -certfile \(try SharedData.chain(Self.chain)) "
            + "| openssl pkcs7 -print_certs | awk '/BEGIN/{n++} n==2' | tee \(e8)")
        let index = try String(contentsOfFile: copy + "/roots.index", encoding: .utf8)
        let reachable = try Self.indexLines(issuerOf: e8, in: index).map { String($0.prefix { $0 != " " }) }
        try #require(!reachable.isEmpty, "no root of E8's issuer in the index")

        // Counted by strace: with the index, only the roots of that subject are opened; without it, every one.
        func openedRoots(_ stores: String) throws -> Set<String> {
            let counts = try PlanReadsOnceTests.opens(["verify", "--stores", stores, "--chain",
                                                       SharedData.chain(Self.chain)] + Self.arguments, status: 1)
            return Set(counts.keys.filter { $0.hasPrefix(stores + "/roots/") }
                .map { String($0.dropFirst(stores.count + 7).dropLast(4)) })
        }
        #expect(try openedRoots(copy) == Set(reachable))
        #expect(try openedRoots(try SharedData.stores()).count == 368)
    }

    /// A root the chain reaches that holds another certificate than its name records is an input error naming it,
    /// as without the index; one it does not reach is never read, so nothing is said of it. Without the index both
    /// are read.
    func checksARootWhenTheChainReachesIt(_ copy: String, in directory: TemporaryDirectory) throws {
        let index = try String(contentsOfFile: copy + "/roots.index", encoding: .utf8)
        let e8 = directory.path("e8.pem")
        try ShellPipeline.output("openssl crl2pkcs7 -nocrl -certfile \(try SharedData.chain(Self.chain)) "
            + "| openssl pkcs7 -print_certs | awk '/BEGIN/{n++} n==2' | tee \(e8)")
        let isrg = try Self.indexLines(issuerOf: e8, in: index).map { String($0.prefix { $0 != " " }) }
        try #require(isrg.count == 1, "\(isrg)")
        // Any other root: a self-signed one of another subject.
        let other = try #require(index.split(separator: "\n").first { line in
            !line.hasPrefix("#") && !line.hasPrefix(isrg[0])
        }.map { String($0.prefix { $0 != " " }) })

        // The unreached root's file holds garbage: with the index it is never read.
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: "\(copy)/roots/\(other).pem"))
        let untouched = try verify(copy)
        #expect(untouched.status == 1, "\(untouched)")
        #expect(untouched.stdout.contains("Android 7.1.1–17 (API 25–37): TRUSTED — anchor ISRG Root X1"),
                "\(untouched)")

        // ISRG Root X1's file holds the test root: the snapshot cannot be used for this chain, an input error
        // naming the file (left out of the store, it made the chain "rejected", exit 1: the app would break).
        try Data(Certs.bytes("root-ca.pem")).write(to: URL(fileURLWithPath: "\(copy)/roots/\(isrg[0]).pem"))
        let swapped = try verify(copy)
        #expect(swapped.status == 2, "\(swapped)")
        #expect(!swapped.stdout.contains("TRUSTED") && !swapped.stdout.contains("REJECTED"), "\(swapped)")
        #expect((swapped.stdout + swapped.stderr).contains("\(copy)/roots/\(isrg[0]).pem: holds a certificate of key "
            + "SHA-256 "), "\(swapped)")
        #expect((swapped.stdout + swapped.stderr).contains("not the one its name records: the snapshot was changed "
            + "after scripts/build-stores.sh wrote it; rebuild it"), "\(swapped)")

        // Without the index every root is read first, and the first that cannot be is an input error.
        try FileManager.default.removeItem(atPath: copy + "/roots.index")
        let unindexed = try verify(copy)
        #expect(unindexed.status == 2, "\(unindexed)")
        #expect(unindexed.stderr.contains("\(copy)/roots/"), "\(unindexed)")
    }

    /// An index line pinctl cannot read is an input error at its line.
    func refusesALineItCannotReadAtItsLine(_ copy: String) throws {
        let path = copy + "/roots.index"
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        // Line 3: an uppercase hash, which the script never writes.
        lines[2] = lines[2].uppercased()
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try verify(copy)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(path):3: expected `ID SUBJECT ISSUER`: a root id (64 lowercase hex "
            + "digits, optionally `-` and 8 more) and two name hashes of 8 lowercase hex digits"), "\(result)")

        let again = try Subprocess.run(Certs.root + "/scripts/index-stores.sh", [copy], in: Certs.root)
        #expect(again.status != 0)
        #expect(again.stderr.contains("\(path) exists; --force replaces it"), "\(again)")
    }
}
