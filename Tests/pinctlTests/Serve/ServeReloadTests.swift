import Foundation
import Glibc
import Testing
import TestSupport

/// Reloads (SIGHUP) that take long (`SlowReload`): scrapes, SIGTERM and more SIGHUPs must not wait for them.
@Suite struct ServeReloadTests {
    /// While the slow reload runs, scrapes are answered with the policy in use; three more SIGHUPs make one reload
    /// after it, not three; once it has run past `--reload-timeout 1` the gauge is 0, the log says why and the status
    /// page says it is stuck. Before, the reload ran on one of the concurrency pool's threads in the SIGHUP loop:
    /// every SIGHUP queued one more reload, and the gauge stayed 1 however long it ran.
    @Test func aSlowReloadHoldsNothingAndSighupsMeanwhileMakeOneMore() throws {
        try SlowReload.withExporter(["--reload-timeout", "1"]) { exporter, release in
            exporter.signal(SIGHUP)
            #expect(SlowReload.waitForStatus("A reload of the policy file is", exporter) != nil, "\(exporter.stderr)")
            for _ in 0..<3 {
                exporter.signal(SIGHUP)
                usleep(100_000)
            }
            let metrics = try exporter.client.get("/metrics", seconds: 5)
            #expect(metrics.metric("pinctl_exporter_policy_apps") == 2, "\(metrics)")
            #expect(try exporter.client.get("/", seconds: 5).body.contains("A reload of the policy file is"))
            let stuck = try #require(SlowReload.waitForStatus("A reload of the policy file is stuck", exporter),
                                     "\(exporter.stderr)")
            #expect(stuck.contains("longer than --reload-timeout (1.0 s)"), "\(stuck)")
            let during = try exporter.client.get("/metrics", seconds: 5)
            #expect(during.metric("pinctl_exporter_policy_last_reload_successful") == 0, "\(during)")
            #expect(exporter.stderr.contains("policy file reload still running after --reload-timeout"),
                    "\(exporter.stderr)")

            // The slow one, then one more for the three SIGHUPs, then none.
            try release()
            #expect(SlowReload.waitForReloads(2, exporter, seconds: 120), "\(exporter.stderr)")
            usleep(300_000)
            #expect(!(try exporter.client.get("/").body.contains("A reload of the policy file")))
            let after = try exporter.client.get("/metrics", seconds: 5)
            #expect(after.metric("pinctl_exporter_policy_reloads_total", [("result", "success")]) == 3, "\(after)")
            #expect(after.metric("pinctl_exporter_policy_last_reload_successful") == 1, "\(after)")
            #expect(after.metric("pinctl_exporter_policy_apps") == 3, "\(after)")
        }
    }

    /// SIGTERM in the middle of a slow reload: the exporter exits 0 at once, as it does when idle, and does not wait
    /// for the reload; before, it exited only once the reload had ended. Exit 0 every time: the process ends without
    /// OpenSSL's exit handler, which freed what the reload thread was parsing with (a crash, one stop in fifteen).
    @Test func sigtermDuringASlowReloadStopsTheExporterAtOnce() throws {
        try SlowReload.withExporter([]) { exporter, _ in
            exporter.signal(SIGHUP)
            #expect(SlowReload.waitForStatus("A reload of the policy file is running", exporter) != nil)
            let signalled = Date()
            exporter.signal(SIGTERM)
            let status = exporter.waitForExit(seconds: 30)
            let seconds = Date().timeIntervalSince(signalled)
            #expect(status == 0, "\(exporter.stderr)")
            #expect(seconds < 2, "exited \(seconds) s after SIGTERM")
            #expect(exporter.stderr.contains("stopped; the reload under way is abandoned"), "\(exporter.stderr)")
        }
    }
}
