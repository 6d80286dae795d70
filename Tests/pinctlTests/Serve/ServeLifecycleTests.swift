import Foundation
import Glibc
import Testing
import TestSupport
import Transport

/// Starting, reloading and stopping `pinctl serve`, as an operator's service manager does.
@Suite struct ServeLifecycleTests {
    static let domain = [("servername", ServeFixture.domain)]

    @Test func sighupReadsThePolicyFileAgainAndABadFileKeepsTheOldOne() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let rotated = try ServeFixture.rotatedServer()
        defer { rotated.stop() }
        let first = ServeFixture.target(good.port)
        let second = ServeFixture.target(rotated.port)
        try ServeFixture.withExporter(targets: [first]) { exporter, file in
            #expect(try exporter.client.probe(second, Self.domain).status == 403)

            // A good file: the new target is probed from then on.
            try ServeFixture.policyFile(targets: [first, second]).write(toFile: file, atomically: true, encoding: .utf8)
            exporter.signal(SIGHUP)
            #expect(exporter.waitForLog("policy file reloaded"), "\(exporter.stderr)")
            let afterGood = try exporter.client.probe(second, Self.domain)
            #expect(afterGood.status == 200, "\(afterGood)")
            #expect(afterGood.metric("pinctl_probe_success", [("app", "ios-trustkit")]) == 0, "\(afterGood)")

            // A bad file: logged with its line, and the previous policy stays in use.
            try "version: 1\napps:\n  - name: broken\n    library: nope\n".write(toFile: file, atomically: true,
                                                                                    encoding: .utf8)
            exporter.signal(SIGHUP)
            #expect(exporter.waitForLog("policy file not reloaded; the previous one stays in use"),
                    "\(exporter.stderr)")
            #expect(exporter.stderr.contains("\(file):4"), "\(exporter.stderr)")
            #expect(exporter.stderr.contains("unknown library 'nope'"), "\(exporter.stderr)")
            let afterBad = try exporter.client.probe(second, Self.domain)
            #expect(afterBad.status == 200, "\(afterBad)")
            #expect(afterBad.samples("pinctl_probe_success").count == 2, "\(afterBad)")
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_policy_last_reload_successful") == 0, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_policy_reloads_total", [("result", "failure")]) == 1, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_policy_reloads_total", [("result", "success")]) == 2, "\(metrics)")
            #expect(exporter.process.isRunning)
        }
    }

    @Test func sigtermLetsTheProbeUnderWayFinishThenExitsZero() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let target = ServeFixture.target(silent.port)
        try ServeFixture.withExporter(targets: [target], ["--timeout", "2"]) { exporter, _ in
            let client = exporter.client
            let answer = ResultBox()
            let probe = Thread { answer.set(try? client.probe(target, Self.domain)) }
            probe.start()
            usleep(500_000)  // the probe is waiting on the silent target
            let signalled = Date()
            exporter.signal(SIGTERM)
            let status = exporter.waitForExit(seconds: 20)
            #expect(status == 0, "\(exporter.stderr)")
            // It waited for the probe (about 1.5 s more) rather than dropping it.
            #expect(Date().timeIntervalSince(signalled) >= 1.2)
            #expect(answer.wait(seconds: 5)?.metric("pinctl_probe_error", [("code", "timeout")]) == 1)
            #expect(exporter.stderr.contains("stopped"), "\(exporter.stderr)")
            // Nothing listens any more.
            #expect((try? client.get("/metrics", seconds: 2)) == nil)
        }
    }

    @Test func sigtermWithNothingUnderWayExitsZeroAtOnce() throws {
        try ServeFixture.withExporter(targets: []) { exporter, _ in
            exporter.signal(SIGTERM)
            #expect(exporter.waitForExit(seconds: 10) == 0, "\(exporter.stderr)")
        }
    }

    @Test func aBrokenPolicyFileAtStartExitsTwoNamingTheFile() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: "version: 1\napps: []\n")
            let result = try PinctlProcess.run(["serve", "--config", file, "--listen", "127.0.0.1:0"], timeout: 60)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("pinctl serve: \(file)"), "\(result)")
            #expect(result.stderr.contains("no apps"), "\(result)")
        }
    }

    @Test func anAddressInUseExitsTwo() throws {
        try ServeFixture.withExporter(targets: []) { exporter, file in
            let result = try PinctlProcess.run(["serve", "--config", file, "--listen", "127.0.0.1:\(exporter.port)"],
                                               timeout: 60)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("cannot serve on 127.0.0.1:\(exporter.port)"), "\(result)")
        }
    }

    @Test(arguments: [
        (["--listen", "9489"], "--listen 9489: expected ADDR:PORT"),
        (["--listen", "127.0.0.1:70000"], "port '70000' is not a number from 0 to 65535"),
        (["--listen", "127.0.0.1:0", "--max-probes", "0"], "--max-probes 0: must be from 1 to 1024"),
        (["--listen", "127.0.0.1:0", "--timeout", "0"], "--timeout 0.0: must be more than 0"),
        (["--listen", "127.0.0.1:0", "--log-level", "loud"], "--log-level loud: expected trace"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try PinctlProcess.run(["serve", "--config", "pinctl.yaml"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }
}

/// One answer handed from a thread to the test.
// @unchecked Sendable: `value` and `isSet` are guarded by `condition`.
private final class ResultBox: @unchecked Sendable {
    private var value: HTTPTestClient.Answer?
    private var isSet = false
    private let condition = ThreadCondition()

    func set(_ answer: HTTPTestClient.Answer?) {
        condition.withLock {
            value = answer
            isSet = true
            condition.broadcast()
        }
    }

    func wait(seconds: Double) -> HTTPTestClient.Answer? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        return condition.withLock {
            while !isSet, ContinuousClock.now < deadline { condition.wait(for: deadline - ContinuousClock.now) }
            return value
        }
    }
}
