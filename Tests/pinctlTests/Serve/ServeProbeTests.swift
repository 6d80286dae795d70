import Foundation
import Testing
import TestSupport

/// `GET /probe` end to end: the built pinctl serving on loopback, probed over HTTP, judging live TLS test servers.
@Suite struct ServeProbeTests {
    static let domain = [("servername", ServeFixture.domain)]
    /// 2125-01-01T00:00:00Z: notAfter of every certs/libraries/ certificate (openssl x509 -enddate).
    static let year2125 = 4_891_363_200.0

    @Test func todaysChainIsTrustedByEveryAppWithTheBlackboxNamesBeside() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let target = ServeFixture.target(good.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let answer = try exporter.client.probe(target, Self.domain)
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(answer.metric("probe_success") == 1, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "okhttp-sdk")]) == 1, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "ios-trustkit")]) == 1, "\(answer)")
            #expect(answer.metric("pinctl_verdict", [("app", "ios-trustkit"), ("reason", "pin-matched")]) == 1)
            #expect(answer.metric("pinctl_verdict", [("app", "okhttp-sdk"), ("reason", "pin-matched")]) == 1)
            #expect(answer.metric("probe_ssl_earliest_cert_expiry") == Self.year2125, "\(answer)")
            #expect(answer.metric("pinctl_certificate_not_after_seconds",
                                  [("position", "0"), ("subject", "CN=api.example.com")]) == Self.year2125)
            #expect(answer.samples("pinctl_certificate_not_after_seconds").count == 2, "\(answer)")
            // okhttp-sdk pins only the store's root: a new CA breaks it when the root expires (2125-01-01, openssl
            // x509 -enddate). ios-trustkit's unused backup pin carries every rotation: no rotation breaks it.
            #expect(answer.metric("pinctl_policy_breaks_on_seconds", [("app", "okhttp-sdk")]) == Self.year2125,
                    "\(answer)")
            #expect(answer.samples("pinctl_policy_breaks_on_seconds").count == 1, "\(answer)")
            let duration = try #require(answer.metric("probe_duration_seconds"), "\(answer)")
            #expect(duration > 0 && duration < 10)
            #expect(answer.samples("pinctl_probe_error").isEmpty)
            // The server saw the domain as SNI: the name the apps judge is the name sent.
            #expect(good.lastServerName == ServeFixture.domain)
        }
    }

    @Test func aRekeyedLeafBreaksTheAppThatPinnedItAndNotTheOneThatPinnedTheRoot() throws {
        let rotated = try ServeFixture.rotatedServer()
        defer { rotated.stop() }
        let target = ServeFixture.target(rotated.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let answer = try exporter.client.probe(target, Self.domain)
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.metric("probe_success") == 0, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "ios-trustkit")]) == 0, "\(answer)")
            #expect(answer.metric("pinctl_probe_success", [("app", "okhttp-sdk")]) == 1, "\(answer)")
            #expect(answer.metric("pinctl_verdict", [("app", "ios-trustkit"), ("reason", "public-key-not-pinned")])
                    == 0,
                    "\(answer)")
            #expect(answer.samples("pinctl_verdict").count == 2, "\(answer)")

            // app= judges with that app alone: the one that still trusts the chain.
            let one = try exporter.client.probe(target, Self.domain + [("app", "okhttp-sdk")])
            #expect(one.metric("probe_success") == 1, "\(one)")
            #expect(one.samples("pinctl_probe_success").count == 1, "\(one)")
        }
    }

    /// The exporter remembers the certificates a target presents (#22), and a rotation on that same target is still
    /// judged from the next probe: today's chain, then the re-keyed leaf under the same intermediate.
    @Test func aRotationOnTheSameTargetIsJudgedFromTheNextProbe() throws {
        let server = try ServeFixture.goodServer()
        defer { server.stop() }
        let target = ServeFixture.target(server.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let before = try exporter.client.probe(target, Self.domain)
            #expect(before.metric("pinctl_probe_success", [("app", "ios-trustkit")]) == 1, "\(before)")

            try server.serve(chainPEM: [LibraryCerts.path("leaf-rekeyed-chain.pem")],
                             keyPath: LibraryCerts.path("leaf-rekeyed.key"))
            let after = try exporter.client.probe(target, Self.domain)
            #expect(after.metric("pinctl_probe_success", [("app", "ios-trustkit")]) == 0, "\(after)")
            #expect(after.metric("pinctl_verdict", [("app", "ios-trustkit"), ("reason", "public-key-not-pinned")])
                    == 0, "\(after)")
            #expect(after.metric("pinctl_probe_success", [("app", "okhttp-sdk")]) == 1, "\(after)")
        }
    }

    @Test func theEarliestExpiryIsTheIntermediatesWhenItExpiresFirst() throws {
        // certs/: a leaf valid to 2125 under an intermediate that expired on 2021-01-01 (openssl x509 -enddate).
        let server = try TLSTestServer(
            chainPEM: [Certs.path("leaf-under-expired-intermediate.pem"), Certs.path("expired-intermediate-ca.pem")],
            keyPath: Certs.path("leaf-under-expired-intermediate.key"))
        defer { server.stop() }
        let target = ServeFixture.target(server.port)
        try ServeFixture.withExporter(targets: [target], ["--allow-any-target"]) { exporter, _ in
            let answer = try exporter.client.probe(target, Self.domain)
            #expect(answer.metric("probe_ssl_earliest_cert_expiry") == 1_609_459_200, "\(answer)")
            let intermediate = "CN=pinctl Test Expired Intermediate CA,O=pinctl Test"
            #expect(answer.metric("pinctl_certificate_not_after_seconds",
                                  [("position", "1"), ("subject", intermediate)])
                    == 1_609_459_200, "\(answer)")
            #expect(answer.metric("pinctl_certificate_not_after_seconds",
                                  [("position", "0"), ("subject", "CN=pinning.test")]) == Self.year2125, "\(answer)")
            // Neither app trusts a chain from another CA.
            #expect(answer.metric("probe_success") == 0)
        }
    }

    @Test func aTargetNotInThePolicyFileIsRefusedUnlessAnyTargetIsAllowed() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let unlisted = ServeFixture.target(good.port)
        try ServeFixture.withExporter(targets: ["127.0.0.1:1"]) { exporter, file in
            let answer = try exporter.client.probe(unlisted, Self.domain)
            #expect(answer.status == 403, "\(answer)")
            #expect(answer.body.contains("target \(unlisted) is not one of the targets of \(file)"), "\(answer)")
            #expect(answer.body.contains("--allow-any-target"))
            // Refused before any connection was made.
            #expect(good.serverNamesReceived.isEmpty)
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "forbidden")]) == 1,
                    "\(metrics)")
        }
        try ServeFixture.withExporter(targets: [], ["--allow-any-target"]) { exporter, _ in
            let answer = try exporter.client.probe(unlisted, Self.domain)
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.metric("probe_success") == 1, "\(answer)")
        }
    }

    @Test func aDomainNoAppCoversIsAFailedProbeNotAConnection() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let target = ServeFixture.target(good.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, file in
            let answer = try exporter.client.probe(target, [("servername", "other.example.org")])
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.metric("probe_success") == 0, "\(answer)")
            #expect(answer.metric("pinctl_probe_error", [("code", "uncovered")]) == 1, "\(answer)")
            #expect(answer.samples("pinctl_probe_success").isEmpty)
            #expect(good.serverNamesReceived.isEmpty)
            let page = try exporter.client.get("/")
            #expect(page.body.contains("uncovered: no app of \(file) covers other.example.org"), "\(page)")
        }
    }

    @Test func aRefusedConnectionIsAFailedProbeWithItsCode() throws {
        let port = try HostilePeer.refusedPort()
        let target = ServeFixture.target(port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let answer = try exporter.client.probe(target, Self.domain)
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.metric("probe_success") == 0)
            #expect(answer.metric("pinctl_probe_error", [("code", "refused")]) == 1, "\(answer)")
            #expect(answer.samples("probe_ssl_earliest_cert_expiry").isEmpty)
        }
    }

    @Test func malformedRequestsAreAnswered400WithTheReason() throws {
        try ServeFixture.withExporter(targets: ["127.0.0.1:1"]) { exporter, file in
            let client = exporter.client
            let missing = try client.get("/probe")
            #expect(missing.status == 400 && missing.body.contains("missing target"), "\(missing)")
            let twice = try client.get("/probe?target=127.0.0.1:1&target=127.0.0.1:1")
            #expect(twice.status == 400 && twice.body.contains("give target once, not 2 times"), "\(twice)")
            let badPort = try client.probe("127.0.0.1:99999")
            #expect(badPort.status == 400 && badPort.body.contains("is not a number from 1 to 65535"), "\(badPort)")
            let unknownApp = try client.probe("127.0.0.1:1", [("app", "nope")])
            #expect(unknownApp.status == 400, "\(unknownApp)")
            #expect(unknownApp.body.contains(
                "app nope: \(file) has no app of that name (its apps: okhttp-sdk, ios-trustkit)"))
            let badHeader = try client.probe("127.0.0.1:1", headers: ["X-Prometheus-Scrape-Timeout-Seconds: soon"])
            #expect(badHeader.status == 400 && badHeader.body.contains("'soon' is not a number"), "\(badHeader)")
            let badName = try client.probe("127.0.0.1:1", [("servername", "bad name")])
            #expect(badName.status == 400 && badName.body.contains("servername bad name"), "\(badName)")
        }
    }

    @Test func requestsBeyondTheLimitsAreRefusedWithoutReadingThem() throws {
        try ServeFixture.withExporter(targets: ["127.0.0.1:1"]) { exporter, _ in
            let client = exporter.client
            let longTarget = try client.get("/probe?target=" + String(repeating: "a", count: 4000) + ".example:1")
            #expect(longTarget.status == 414, "\(longTarget)")
            #expect(longTarget.body.contains("at most 2048 are accepted"), "\(longTarget)")
            let request = "POST /probe?target=127.0.0.1:1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n"
                + "Connection: close\r\n\r\n" + String(repeating: "x", count: 1000)
            let body = try client.exchange(Array(request.utf8))
            #expect(body.status == 413, "\(body)")
            let post = try client.exchange(Array("POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(post.status == 405, "\(post)")
            // Headers beyond 16 KiB in all never reach a route.
            let filler = (0..<40).map { "X-Filler-\($0): " + String(repeating: "y", count: 500) }
            let huge = try? client.get("/", headers: filler)
            #expect(huge.map { $0.status >= 400 } ?? true, "\(String(describing: huge))")
            // And the exporter still answers.
            #expect(try client.get("/metrics").status == 200)
        }
    }

    @Test func theStatusPageListsTheAppsAndTheLatestProbes() throws {
        let rotated = try ServeFixture.rotatedServer()
        defer { rotated.stop() }
        let target = ServeFixture.target(rotated.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let before = try exporter.client.get("/")
            #expect(before.status == 200)
            #expect(before.headers["content-type"] == "text/html; charset=utf-8")
            // The hosts each library's own policy names (#36): an OkHttp pattern, a TrustKit domain.
            #expect(before.body.contains("<td>okhttp-sdk</td><td>okhttp</td><td></td><td>**.example.com</td>"),
                    "\(before)")
            #expect(before.body.contains("<td>ios-trustkit</td><td>trustkit</td><td>3.1</td><td>api.example.com</td>"),
                    "\(before)")
            #expect(before.body.contains("None yet."))
            _ = try exporter.client.probe(target, Self.domain)
            let after = try exporter.client.get("/")
            #expect(after.body.contains(
                "<td>\(target)</td><td>api.example.com</td><td class=\"rejected\">rejected</td>"),
                    "\(after)")
            #expect(after.body.contains("okhttp-sdk trusted, ios-trustkit rejected (public-key-not-pinned)"),
                    "\(after)")
        }
    }

    @Test func theStatusPageEscapesWhatThePolicyFileSays() throws {
        try TemporaryDirectory.with { directory in
            let text = ServeFixture.policyFile(targets: ["127.0.0.1:1"])
                .replacingOccurrences(of: "name: okhttp-sdk", with: "name: \"<script>x</script>\"")
            let file = try directory.write("pinctl.yaml", text: text)
            let exporter = try ServeProcess(["--config", file] + ServeFixture.at)
            defer { exporter.stop() }
            let page = try exporter.client.get("/")
            #expect(page.body.contains("<td>&lt;script&gt;x&lt;/script&gt;</td>"), "\(page)")
            #expect(!page.body.contains("<script>"), "\(page)")
        }
    }

    @Test func theExportersOwnMetricsCountProbesByOutcome() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let rotated = try ServeFixture.rotatedServer()
        defer { rotated.stop() }
        let targets = [ServeFixture.target(good.port), ServeFixture.target(rotated.port)]
        try ServeFixture.withExporter(targets: targets) { exporter, _ in
            for _ in 0..<2 { _ = try exporter.client.probe(targets[0], Self.domain) }
            _ = try exporter.client.probe(targets[1], Self.domain)
            _ = try exporter.client.probe(targets[1], [("servername", "other.example.org")])
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.metric("pinctl_exporter_probes_total", [("outcome", "trusted")]) == 2, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_probes_total", [("outcome", "rejected")]) == 1, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_probes_total", [("outcome", "error")]) == 1, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_probe_duration_seconds_count") == 4, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_probes_in_flight") == 0, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_max_probes") == 64, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_policy_apps") == 2, "\(metrics)")
        }
    }
}
