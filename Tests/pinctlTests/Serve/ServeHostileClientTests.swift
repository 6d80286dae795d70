import Foundation
import Testing
import TestSupport

/// Clients that misbehave on purpose: heads that never end (slowloris), a query that tries to write log lines of its
/// own, and HEAD, which a monitor may send to see whether the exporter is up.
@Suite struct ServeHostileClientTests {
    /// 1,100 connections from one address that send half a request head and stall: the server accepts 1,024 at
    /// most, so they held every one until the idle timeout. Now that address holds 256 (the rest are closed at once)
    /// and a scrape from another address is answered at once.
    @Test func stalledHeadsFromOneAddressDoNotLockAScrapeOut() throws {
        try #require(StalledConnection.allowOpenFiles(4096), "needs 4,096 open files")
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"]) { exporter, _ in
            var stalled: [StalledConnection] = []
            for _ in 0..<1100 {
                stalled.append(try StalledConnection(port: exporter.port, from: "127.0.0.2"))
            }
            let start = Date()
            let answer = try exporter.client.get("/metrics", seconds: 5)
            #expect(answer.status == 200, "\(answer)")
            #expect(Date().timeIntervalSince(start) < 5)
            // Every connection beyond the 256th was closed as it was accepted.
            let refused = try #require(answer.metric("pinctl_exporter_connections_refused_total"), "\(answer)")
            #expect(refused >= 800 && refused <= 844, "\(refused)")
            withExtendedLifetime(stalled) {}
        }
    }

    /// `--header-timeout 1`: a head that is not complete a second after the connection opened is closed, and a
    /// connection that completed its head in time is answered; kept alive after its answer, it is closed when it
    /// has sent nothing more for as long.
    @Test func aHeadNotCompleteWithinTheHeaderTimeoutIsClosed() throws {
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"], ["--header-timeout", "1"]) { exporter, _ in
            let stalled = try (0..<8).map { _ in try StalledConnection(port: exporter.port, from: "127.0.0.3") }
            let start = Date()
            for connection in stalled {
                #expect(connection.isClosedByServer(within: 6), "still open after \(Date().timeIntervalSince(start)) s")
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(seconds >= 0.5 && seconds < 6, "closed after \(seconds) s")
            #expect(try exporter.client.get("/metrics").status == 200)

            let kept = try StalledConnection(port: exporter.port, from: "127.0.0.3",
                                             sending: "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(kept.received(within: 5, until: "pinctl_exporter_max_probes ").contains("HTTP/1.1 200"))
            let answered = Date()
            #expect(kept.isClosedByServer(within: 6))
            let idle = Date().timeIntervalSince(answered)
            #expect(idle >= 0.5 && idle < 6, "closed after \(idle) s")
        }
    }

    /// A request with a body is refused (413) before the body is read, and its connection closed at once. Before, the
    /// server read the body after the answer, each trickled byte restarting its idle timeout, so a client that sent a
    /// byte now and then held the connection for ever, and 256 of them locked their address out. `--header-timeout
    /// 60`: what closes these connections is the refusal, not the timeout.
    @Test func aRefusedBodyIsNeverReadAndItsConnectionCloses() throws {
        let arguments = ["--max-connections-per-address", "4", "--header-timeout", "60"]
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"], arguments) { exporter, _ in
            let head = "POST /probe?target=127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n"
            // Six from the address every test client uses: four are let in, two closed as they are accepted.
            let clients = try (0..<6).map { _ in
                try StalledConnection(port: exporter.port, from: "127.0.0.1", sending: head + "x")
            }
            let answers = clients.map { $0.received(within: 5, until: "\r\n\r\n").lowercased() }
            let refusals = answers.filter { $0.hasPrefix("http/1.1 413") }
            #expect(refusals.count == 4, "\(answers)")
            #expect(refusals.allSatisfy { $0.contains("\r\nconnection: close\r\n") }, "\(refusals)")

            // A byte every 100 ms on each, as long as the server takes them.
            let start = Date()
            var open = Array(clients.indices)
            while !open.isEmpty, Date().timeIntervalSince(start) < 10 {
                open.removeAll { !clients[$0].send("x") }
                usleep(100_000)
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(open.isEmpty, "\(open.count) still open after \(seconds) s")
            #expect(seconds < 3, "the last closed after \(seconds) s")
            // The address is free again: a new client from it is answered.
            let metrics = try exporter.client.get("/metrics", seconds: 5)
            #expect(metrics.status == 200, "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "too-large")]) == 4,
                    "\(metrics)")
            withExtendedLifetime(clients) {}
        }
    }

    /// `--max-connections-per-address 4`: the fifth connection from one address is closed at once, while another
    /// address still gets in.
    @Test func connectionsBeyondThePerAddressCapAreClosedAtOnce() throws {
        let arguments = ["--max-connections-per-address", "4"]
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"], arguments) { exporter, _ in
            let held = try (0..<4).map { _ in try StalledConnection(port: exporter.port, from: "127.0.0.4") }
            for connection in held { #expect(!connection.isClosedByServer(within: 0.2)) }
            let fifth = try StalledConnection(port: exporter.port, from: "127.0.0.4")
            #expect(fifth.isClosedByServer(within: 2))
            let answer = try exporter.client.get("/metrics")
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.metric("pinctl_exporter_connections_refused_total") == 1, "\(answer)")
            // Open to the end: in an optimised build `held` may be released after its last use, which closed the four
            // before the fifth connected, so the fifth was let in.
            withExtendedLifetime(held) {}
        }
    }

    /// `%0d%0a` in a query decodes to CR LF, and the refusal's log line quotes the target: it stays one line, with
    /// the break shown as an escape. The backslash before it (`%5C`) is doubled, so it cannot pass for one.
    @Test func aQueryWithCRLFCannotForgeALogLine() throws {
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"]) { exporter, _ in
            let answer = try exporter.client.get("/probe?target=x%5C%0d%0afake%20line")
            #expect(answer.status == 400, "\(answer)")
            #expect(exporter.waitForLog("probe refused"), "\(exporter.stderr)")
            // isNewline: CR LF is one Character in Swift, equal to neither "\r" nor "\n".
            let lines = exporter.stderr.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            #expect(!lines.contains { $0.hasPrefix("fake line") }, "\(exporter.stderr)")
            #expect(exporter.stderr.contains(#"x\\\r\nfake line"#), "\(exporter.stderr)")
        }
    }

    /// A backslash in an otherwise plain query is doubled too: `back\nslash` must not read as an escaped line break.
    @Test func aBackslashInAPlainQueryIsDoubledInTheLog() throws {
        try ServeFixture.withExporter(targets: ["127.0.0.1:9"]) { exporter, _ in
            let answer = try exporter.client.get("/probe?target=back%5Cnslash")
            #expect(answer.status == 400, "\(answer)")
            #expect(exporter.waitForLog("probe refused"), "\(exporter.stderr)")
            #expect(exporter.stderr.contains(#"back\\nslash"#), "\(exporter.stderr)")
        }
    }

    /// HEAD is GET without the body: the same status and headers (Content-Length the body's). HEAD /probe runs the
    /// probe, as the blackbox exporter's does, so its headers are the ones the GET would get.
    @Test func headIsAnsweredAsGetWithoutTheBody() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let target = ServeFixture.target(good.port)
        try ServeFixture.withExporter(targets: [target]) { exporter, _ in
            let query = "/probe?target=\(target)&servername=\(ServeFixture.domain)"
            for path in ["/metrics", "/", query] {
                let head = try exporter.client.exchange(Array(
                    "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                #expect(head.status == 200, "HEAD \(path): \(head)")
                #expect(head.body.isEmpty, "HEAD \(path): \(head)")
                let length = try #require(head.headers["content-length"].flatMap { Int($0) }, "HEAD \(path): \(head)")
                #expect(length > 0, "HEAD \(path): \(head)")
            }
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_probes_total", [("outcome", "trusted")]) == 1, "\(metrics)")
        }
    }
}
