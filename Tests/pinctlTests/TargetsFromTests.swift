import Foundation
import Testing
import TestSupport

/// `pinctl check --targets-from FILE|-`: one target per line, `#` comments and blank lines skipped, after the
/// command line's targets; results in input order, whatever finishes first; a bad line is an input error naming
/// the file and line.
@Suite struct TargetsFromTests {
    @Test func aListWithCommentsAndBlankLinesGivesWhatTheSameTargetsOnTheCommandLineGive() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let incomplete = try LiveRun.leafOnlyServer()
        defer { incomplete.stop() }
        let refused = try HostilePeer.refusedPort()
        let targets = ["127.0.0.1:\(good.port)", "127.0.0.1:\(refused)", "127.0.0.1:\(incomplete.port)",
                       "127.0.0.1:\(good.port)"]
        let list = """
            # the fleet
            127.0.0.1:\(good.port)

               127.0.0.1:\(refused)   # decommissioned, still listed
            \t
            127.0.0.1:\(incomplete.port)\r
            127.0.0.1:\(good.port)
            """
        let options = ["--servername", "pinning.test", "--format", "json"] + LiveRun.anchors

        try TemporaryDirectory.with { directory in
            let file = try directory.write("targets.txt", text: list)
            let listed = try PinctlProcess.run(["check", "--targets-from", file] + options)
            let given = try PinctlProcess.run(["check"] + targets + options)

            #expect(listed.status == 1, "\(listed)")
            let objects = try LiveRun.objects(listed.stdout)
            #expect(objects.map { $0["target"] as? String } == targets)
            #expect(objects.map { $0["verdict"] as? String } == ["trusted", "error", "rejected", "trusted"])
            #expect(objects.map(LiveRun.reasonCode) == [nil, "refused", "untrusted-chain", nil])
            #expect(given.status == listed.status)
            #expect(given.stdout == listed.stdout)
        }
    }

    @Test func aDashReadsTheListFromStandardInputAfterTheCommandLineTargets() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let refused = try HostilePeer.refusedPort()
        // The last line has no newline: it is still a target.
        let input = "127.0.0.1:\(good.port)\n# nothing here\n127.0.0.1:\(refused)"

        let result = try PinctlProcess.run(
            ["check", "127.0.0.1:\(refused)", "--targets-from", "-", "--servername", "pinning.test", "--format", "json"]
                + LiveRun.anchors, input: Array(input.utf8))

        #expect(result.status == 3, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["target"] as? String }
            == ["127.0.0.1:\(refused)", "127.0.0.1:\(good.port)", "127.0.0.1:\(refused)"])
        #expect(objects.map { $0["verdict"] as? String } == ["error", "trusted", "error"])
        #expect(good.serverNamesReceived == ["pinning.test"])
    }

    @Test func aBadLineIsAnInputErrorNamingTheFileAndLineInItsPlace() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        try TemporaryDirectory.with { directory in
            let file = try directory.write("targets.txt", text: """
                127.0.0.1:\(good.port)
                # a comment is line 2
                host.example:99999
                127.0.0.1:\(good.port)

                """)

            let result = try PinctlProcess.run(["check", "--targets-from", file, "--servername", "pinning.test",
                                                "--format", "json"] + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(
                "\(file):3: target host.example…: the port is not a number from 1 to 65535"), "\(result)")
            let objects = try LiveRun.objects(result.stdout)
            // A list can be any file: its bad line is quoted only up to a `:` (UntrustedText).
            #expect(objects.map { $0["target"] as? String }
                == ["127.0.0.1:\(good.port)", "host.example…", "127.0.0.1:\(good.port)"])
            #expect(objects.map(LiveRun.reasonCode) == [nil, "input", nil])
        }
    }

    @Test func aMissingListIsAnInputErrorNamingItBeforeAnyConnection() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        try TemporaryDirectory.with { directory in
            let missing = directory.path("no-such-list.txt")

            let result = try PinctlProcess.run(["check", "127.0.0.1:\(good.port)", "--targets-from", missing,
                                                "--servername", "pinning.test"] + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--targets-from \(missing): no such file"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(good.serverNamesReceived.isEmpty, "no target was contacted")
        }
    }

    @Test func resultsKeepTheInputOrderWhenAnEarlyTargetIsSlowAndLaterOnesFinishFirst() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let silent = try HostilePeer(.neverAccepts)
        defer { silent.stop() }
        // More targets behind the silent one than --jobs 2 lets wait (16): the window fills and frees in order.
        let fast = Array(repeating: "127.0.0.1:\(good.port)", count: 40)
        let list = (["127.0.0.1:\(silent.port)"] + fast).joined(separator: "\n")

        let result = try PinctlProcess.run(
            ["check", "--targets-from", "-", "--jobs", "2", "--timeout", "1", "--servername", "pinning.test",
             "--format", "json"] + LiveRun.anchors, input: Array(list.utf8))

        #expect(result.status == 3, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["target"] as? String } == ["127.0.0.1:\(silent.port)"] + fast)
        #expect(objects.map(LiveRun.reasonCode) == ["timeout"] + Array(repeating: nil, count: 40))
        #expect(good.serverNamesReceived.count == 40)
    }

    @Test func silentTargetsWaitSideBySideNotOneWindowAfterAnother() throws {
        let good = try LiveRun.server()
        defer { good.stop() }
        let silent = try HostilePeer(.neverAccepts)
        defer { silent.stop() }
        // 48 silent targets: 16 at a time (the threads started before any target waits) would take 3 timeouts, 9 s.
        // Side by side they take one, 3 s; the bound sits below two, so a loaded CI machine (which once took more than
        // the one timeout plus 1.5 s) does not pass for serial waiting, nor serial waiting for side by side.
        let targets = (0..<60).map { "127.0.0.1:\($0 % 5 == 0 ? good.port : silent.port)" }
        let bound = 2 * 3.0 + (try LiveRun.startup())

        let clock = ContinuousClock()
        let began = clock.now
        let result = try PinctlProcess.run(
            ["check", "--targets-from", "-", "--timeout", "3", "--servername", "pinning.test", "--format", "json"]
                + LiveRun.anchors, input: Array(targets.joined(separator: "\n").utf8))
        let seconds = (clock.now - began) / .seconds(1)

        #expect(result.status == 3, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["target"] as? String } == targets)
        #expect(objects.filter { LiveRun.reasonCode($0) == "timeout" }.count == 48)
        #expect(good.serverNamesReceived.count == 12)
        #expect(seconds < bound, "the silent targets waited side by side: took \(seconds) s")
    }
}
