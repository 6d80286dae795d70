import Foundation
import Testing
import TestSupport
import Synchronization

/// The exporter under misbehaving targets and more load than it admits: every request is answered, hostile targets
/// hold only their own slots, and no more than --max-probes probes ever run at once.
@Suite struct ServeLoadTests {
    static let domain = [("servername", ServeFixture.domain)]

    /// Runs `count` blocking jobs on as many threads at once and returns their results in index order.
    static func concurrently<T: Sendable>(_ count: Int, _ job: @escaping @Sendable (Int) -> T) -> [T] {
        let results = ResultList<T>(count: count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                results.set(index, job(index))
                group.leave()
            }
        }
        group.wait()
        return results.values
    }

    @Test func silentAndGarbageTargetsDoNotHoldUpAGoodOne() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let garbage = try HostilePeer(.randomBytes)
        defer { garbage.stop() }
        let targets = [good.port, silent.port, garbage.port].map(ServeFixture.target)
        try ServeFixture.withExporter(targets: targets, ["--timeout", "4"]) { exporter, _ in
            let client = exporter.client
            // Two silent probes hold two slots for their whole timeout; the others must not wait for them.
            let started = Date()
            let answers = Self.concurrently(5) { index -> (HTTPTestClient.Answer?, Double) in
                if index >= 2 { usleep(300_000) }  // after the silent probes are under way
                let target = index < 2 ? targets[1] : index == 2 ? targets[2] : targets[0]
                let answer = try? client.probe(target, Self.domain)
                return (answer, Date().timeIntervalSince(started))
            }
            for (answer, seconds) in answers[0..<2] {
                #expect(answer?.metric("pinctl_probe_error", [("code", "timeout")]) == 1,
                        "\(String(describing: answer))")
                #expect(seconds >= 3.5, "a silent target answered 'timeout' after \(seconds) s")
            }
            #expect(answers[2].0?.metric("pinctl_probe_error", [("code", "not-tls")]) == 1,
                    "\(String(describing: answers[2].0))")
            for (answer, seconds) in answers[3...] {
                #expect(answer?.metric("probe_success") == 1, "\(String(describing: answer))")
                #expect(seconds < 3, "a good target was answered after \(seconds) s, behind the silent ones")
            }
        }
    }

    @Test func prometheusScrapeTimeoutCapsTheProbeTimeout() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let target = ServeFixture.target(silent.port)
        try ServeFixture.withExporter(targets: [target], ["--timeout", "30"]) { exporter, _ in
            let started = Date()
            // 2 s of scrape timeout leave the probe 1.5 s: half a second for the answer to travel.
            let answer = try exporter.client.probe(target, Self.domain,
                                                   headers: ["X-Prometheus-Scrape-Timeout-Seconds: 2"])
            let seconds = Date().timeIntervalSince(started)
            #expect(answer.metric("pinctl_probe_error", [("code", "timeout")]) == 1, "\(answer)")
            #expect(seconds >= 1.4 && seconds < 2, "answered after \(seconds) s")
            let duration = try #require(answer.metric("probe_duration_seconds"))
            #expect(duration >= 1.4 && duration < 1.9, "\(answer)")
        }
    }

    @Test func probesBeyondMaxProbesAreAnswered503AtOnce() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let targets = [ServeFixture.target(silent.port), ServeFixture.target(good.port)]
        try ServeFixture.withExporter(targets: targets, ["--max-probes", "2", "--timeout", "3"]) { exporter, _ in
            let client = exporter.client
            let holders = Self.concurrently(3) { index -> HTTPTestClient.Answer? in
                if index == 2 {
                    usleep(500_000)  // both slots are taken by then
                    let started = Date()
                    let answer = try? client.probe(targets[1], Self.domain)
                    // Refused at once, not queued behind the silent probes.
                    return Date().timeIntervalSince(started) < 1 ? answer : nil
                }
                return try? client.probe(targets[0], Self.domain)
            }
            let refused = try #require(holders[2], "the third probe was not answered at once")
            #expect(refused.status == 503, "\(refused)")
            #expect(refused.body.contains("2 probes are running, as many as --max-probes allows"), "\(refused)")
            #expect(holders[0]?.status == 200 && holders[1]?.status == 200)
            // With the slots free again the good target is probed.
            #expect(try client.probe(targets[1], Self.domain).metric("probe_success") == 1)
            let metrics = try client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "busy")]) == 1, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_probes_in_flight_peak") == 2, "\(metrics)")
        }
    }

    @Test func aBurstOf200ConcurrentProbesIsAnsweredWithinTheBound() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let target = ServeFixture.target(good.port)
        try ServeFixture.withExporter(targets: [target], ["--max-probes", "16", "--timeout", "20"]) { exporter, _ in
            let client = exporter.client
            let answers = Self.concurrently(200) { _ in try? client.probe(target, Self.domain, seconds: 60) }
            let unanswered = answers.filter { $0 == nil }.count
            #expect(unanswered == 0, "\(unanswered) of 200 requests got no HTTP answer")
            let probed = answers.compactMap { $0 }.filter { $0.status == 200 }
            let refused = answers.compactMap { $0 }.filter { $0.status == 503 }
            #expect(probed.count + refused.count == 200)
            #expect(!probed.isEmpty)
            #expect(probed.allSatisfy { $0.metric("probe_success") == 1 }, "a probe of the good target failed")
            #expect(refused.allSatisfy { $0.body.contains("as many as --max-probes allows") })
            let metrics = try client.get("/metrics")
            let peak = try #require(metrics.metric("pinctl_exporter_probes_in_flight_peak"), "\(metrics)")
            #expect(peak >= 1 && peak <= 16, "peak \(peak)")
            #expect(metrics.metric("pinctl_exporter_probes_total", [("outcome", "trusted")]) == Double(probed.count))
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "busy")])
                    == Double(refused.count))
            // A probe thread is started only when none is idle, and kept: at most --max-probes of them.
            let probeThreads = exporter.threadCount(named: "pinctl-probe")
            #expect(probeThreads >= 1 && probeThreads <= 16, "\(probeThreads) probe threads")
        }
    }

    /// Probe threads are started as probes arrive, not as a pool's work queue drains: 24 probes of a silent target
    /// run together and all time out after the one timeout. (On Dispatch, which adds threads for blocked work slowly,
    /// they ran in turns on a few threads.)
    @Test func probesOfASilentTargetWaitTogetherNotInTurns() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let target = ServeFixture.target(silent.port)
        try ServeFixture.withExporter(targets: [target], ["--timeout", "2"]) { exporter, _ in
            let client = exporter.client
            let started = Date()
            let answers = Self.concurrently(24) { _ in try? client.probe(target, Self.domain, seconds: 30) }
            let seconds = Date().timeIntervalSince(started)
            #expect(answers.allSatisfy { $0?.metric("pinctl_probe_error", [("code", "timeout")]) == 1 })
            #expect(seconds >= 1.9 && seconds < 3.9, "24 probes of a silent target took \(seconds) s")
            let metrics = try client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_probes_in_flight_peak") == 24, "\(metrics)")
        }
    }
}

/// Results written by index from many threads.
private final class ResultList<T: Sendable>: Sendable {
    private let storage: Mutex<[T?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) { storage.withLock { $0[index] = value } }

    var values: [T] { storage.withLock { $0.compactMap { $0 } } }
}
