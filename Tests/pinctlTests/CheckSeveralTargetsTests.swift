import Foundation
import Testing
import TestSupport

/// `pinctl check` with several targets: results in the order given, the same with any --jobs, and one exit code
/// for all in DESIGN §3's order of severity 2, 1, 3, 0.
@Suite struct CheckSeveralTargetsTests {
    @Test func resultsPrintInTheOrderGivenWhateverFinishesFirst() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let refused = try HostilePeer.refusedPort()
        // Mixed so that fast refusals finish before handshakes queued at the one-at-a-time server.
        let targets = (0..<12).map { "127.0.0.1:\($0 % 3 == 1 ? refused : server.port)" }
        let arguments = ["check"] + targets + ["--servername", "pinning.test", "--format", "json"] + LiveRun.anchors

        let result = try PinctlProcess.run(arguments + ["--jobs", "8"])

        #expect(result.status == 3, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["target"] as? String } == targets)
        let verdicts = targets.map { $0.hasSuffix(":\(refused)") ? "error" : "trusted" }
        #expect(objects.map { $0["verdict"] as? String } == verdicts)
        #expect(objects.filter { LiveRun.reasonCode($0) == "refused" }.count == 4)
        #expect(LiveRun.lines(result.stderr).count == 4, "one line per refused target: \(result.stderr)")
        #expect(server.serverNamesReceived.count == 8)
    }

    @Test func oneJobAndEightJobsPrintTheSameOutput() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let refused = try HostilePeer.refusedPort()
        let targets = (0..<12).map { "127.0.0.1:\($0 % 4 == 2 ? refused : server.port)" }
        let arguments = ["check"] + targets + ["--servername", "pinning.test"] + LiveRun.anchors

        let serial = try PinctlProcess.run(arguments + ["--jobs", "1"])
        let parallel = try PinctlProcess.run(arguments + ["--jobs", "8"])

        #expect(serial.status == 3, "\(serial)")
        #expect(parallel.status == serial.status)
        #expect(parallel.stdout == serial.stdout)
        #expect(parallel.stderr == serial.stderr)
        #expect(serial.stdout.components(separatedBy: "TRUSTED").count - 1 == 9, "\(serial)")
    }

    enum Kind: String, Sendable {
        case trusted, rejected, refused
    }

    struct Mix: Sendable, CustomTestStringConvertible {
        let kinds: [Kind]
        let flags: [String]
        let status: Int32
        var testDescription: String { (kinds.map(\.rawValue) + flags).joined(separator: " ") + " → \(status)" }
    }

    static let mixes = [
        Mix(kinds: [.trusted, .trusted], flags: [], status: 0),
        Mix(kinds: [.trusted, .refused], flags: [], status: 3),
        Mix(kinds: [.refused, .trusted], flags: [], status: 3),
        Mix(kinds: [.trusted, .rejected, .refused], flags: [], status: 1),
        Mix(kinds: [.refused, .rejected, .trusted], flags: [], status: 1),
        // A contradiction is a configuration error: it beats a rejection and a connection failure.
        Mix(kinds: [.trusted, .rejected, .refused], flags: ["--allow-invalid-certificates"], status: 2),
    ]

    @Test(arguments: mixes)
    func theMostSevereOutcomeDecidesTheExitCode(_ mix: Mix) throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let incomplete = try LiveRun.leafOnlyServer()
        defer { incomplete.stop() }
        let refused = try HostilePeer.refusedPort()
        let targets = mix.kinds.map { kind in
            switch kind {
            case .trusted: "127.0.0.1:\(good.port)"
            case .rejected: "127.0.0.1:\(incomplete.port)"
            case .refused: "127.0.0.1:\(refused)"
            }
        }

        let result = try PinctlProcess.run(["check"] + targets + mix.flags + ["--format", "json"] + LiveRun.anchors)

        #expect(result.status == mix.status, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["target"] as? String } == targets)
        let codes = objects.map(LiveRun.reasonCode)
        let expected: [String?] = mix.kinds.map { kind in
            if kind == .refused { return "refused" }
            if mix.flags.contains("--allow-invalid-certificates") { return "contradiction" }
            return kind == .rejected ? "untrusted-chain" : nil
        }
        #expect(codes == expected, "\(result)")
    }

    @Test(arguments: ["host:99999", "[::1", "ftp://x"])
    func badTargetSyntaxIsAUsageErrorNamingItBeforeAnyConnection(_ bad: String) throws {
        let server = try LiveRun.server()
        defer { server.stop() }

        let result = try PinctlProcess.run(["check", "127.0.0.1:\(server.port)", bad] + LiveRun.anchors)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("target \(bad):"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(server.serverNamesReceived.isEmpty, "no target was contacted")
    }

    /// Issue 17, 8e: an explicit --jobs beyond what the open-file limit can hold is lowered, with one warning, instead
    /// of failing targets with "too many open files". Under `ulimit -n 64`, (64 − 32) / 2 = 16 fit; silent targets
    /// hold their sockets until the timeout, so without the fit the runner would hold 80 at once.
    @Test func anExplicitJobsBeyondTheOpenFileLimitIsLoweredWithAWarning() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let silent = try HostilePeer(.neverAccepts)
        defer { silent.stop() }
        let targets = (0..<90).map { "127.0.0.1:\($0 % 9 == 0 ? good.port : silent.port)" }
        try TemporaryDirectory.with { directory in
            let list = try directory.write("targets.txt", text: targets.joined(separator: "\n") + "\n")
            let options = ["--targets-from", list, "--jobs", "256", "--timeout", "1", "--servername", "pinning.test",
                           "--format", "json"] + LiveRun.anchors

            let result = try PinctlProcess.runShell("ulimit -n 64 && exec \"$PINCTL\" check "
                + options.map { "'\($0)'" }.joined(separator: " "))

            #expect(result.status == 3, "\(result)")
            let objects = try LiveRun.objects(result.stdout)
            #expect(objects.map { $0["target"] as? String } == targets)
            #expect(objects.filter { LiveRun.reasonCode($0) == "timeout" }.count == 80, "\(result)")
            #expect(good.serverNamesReceived.count == 10)
            #expect(!"\(result)".lowercased().contains("too many open files"), "\(result)")
            #expect(result.stderr.hasPrefix("warning: --jobs 256: checking 16 targets at once instead: the open-file "
                + "limit (ulimit -n) is 64, and each may hold 2 files beside the 32 pinctl keeps\n"), "\(result)")
            #expect(result.stderr.components(separatedBy: "warning:").count == 2, "one warning: \(result)")
        }
    }
}
