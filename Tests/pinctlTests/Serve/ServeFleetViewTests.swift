import Foundation
import Glibc
import Testing
import TestSupport

/// The fleet view at `/` (#36), as headless Chromium renders it (no script in it: it reads without JavaScript): a
/// row per target, a column per app, one cell per (target, app, platform range) with the latest probe's verdict, its
/// reason and the days to the first rotation that breaks the app, the worst rows first.
@Suite struct ServeFleetViewTests {
    /// 2026-06-01 (TestTime.now, serve's --at) to 2125-01-01 (the fixtures' notAfter, openssl x509 -enddate), counted
    /// with Python's datetime.date.
    static let daysTo2125 = 36_008

    struct Cell: Equatable, CustomStringConvertible {
        let app: String
        let platform: String
        let verdict: String
        let reason: String

        var description: String { "\(app) \(platform) \(verdict) \(reason)" }
    }

    /// The fleet table's rows as rendered: each row's header text, and its cells.
    static func fleet(_ exporter: ServeProcess) throws -> [(target: String, cells: [ElementTree], row: ElementTree)] {
        let dom = try HeadlessBrowser.renderedDOM("http://127.0.0.1:\(exporter.port)/")
        #expect(!dom.descendants.contains { $0.tag == "script" })
        let table = try #require(dom.descendants.first { $0.tag == "table" && $0.classes.contains("fleet") },
                                 "no fleet table")
        let body = try #require(table.elements("tbody").first)
        return body.elements("tr").map { row in
            (row.elements("th").first?.text ?? "", row.descendants.filter { $0.classes.contains("cell") }, row)
        }
    }

    static func cell(_ element: ElementTree) -> Cell {
        Cell(app: element.attribute("data-app") ?? "?", platform: element.attribute("data-platform") ?? "?",
             verdict: element.classes.first { ["trusted", "rejected", "error"].contains($0) } ?? "?",
             reason: element.descendants.first { $0.classes.contains("reason") }?.text ?? "?")
    }

    /// ServePlatformsTests' file (Android 7.0 lacks the root the chain ends at; 7.1.1 has it), with a second target
    /// no app covers and no probe reached: a cell per range for the probed target, none for the other.
    @Test func eachTargetAppAndPlatformRangeIsOneCell() throws {
        try StoresCommandTests.withStores { directory in
            let server = try ServePlatformsTests.server()
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let text = ServePlatformsTests.policyFile(target: target, platforms: "android@24-25")
                .replacingOccurrences(of: "targets: [\"\(target)\"]", with: "targets: [\"\(target)\", \"127.0.0.1:1\"]")
            let file = try directory.write("pinctl.yaml", text: text)
            let exporter = try ServeProcess(["--config", file, "--at", TestTime.nowText,
                                             "--stores", directory.path("stores")])
            defer { exporter.stop() }

            let before = try Self.fleet(exporter)
            #expect(before.allSatisfy { $0.cells.isEmpty })
            #expect(before.count == 2)
            _ = try exporter.client.probe(target, ServePlatformsTests.servername)
            let rows = try Self.fleet(exporter)

            try #require(rows.count == 2, "\(rows.map(\.target))")
            #expect(rows[0].target == "\(target)as pinning.test", "\(rows[0].target)")
            #expect(rows[0].cells.map(Self.cell) == [
                Cell(app: "validating", platform: "android@24", verdict: "rejected", reason: "untrusted-chain"),
                Cell(app: "validating", platform: "android@25", verdict: "trusted", reason: "validated"),
                Cell(app: "leaf-pinned", platform: "android@24", verdict: "trusted", reason: "pin-matched"),
                Cell(app: "leaf-pinned", platform: "android@25", verdict: "trusted", reason: "pin-matched"),
            ])
            // The leaf's key is pinned with no backup: its renewal breaks the app at the leaf's notAfter.
            let breaks = rows[0].cells.map { $0.descendants.first { $0.classes.contains("breaks") }?.text }
            #expect(breaks == [nil, nil, "breaks in \(Self.daysTo2125) days (2125-01-01)",
                               "breaks in \(Self.daysTo2125) days (2125-01-01)"])
            // Each cell links to the probe that judges it again.
            let link = rows[0].cells[0].descendants.first { $0.tag == "a" }?.attribute("href")
            #expect(link == "/probe?target=127.0.0.1%3A\(server.port)&servername=pinning.test&app=validating")
            // The unprobed target: listed, covered by neither app.
            #expect(rows[1].target == "127.0.0.1:1")
            #expect(rows[1].row.elements("td").map(\.text) == Array(repeating: "does not cover 127.0.0.1", count: 2))
        }
    }

    /// ServeFixture's two apps on three targets: a re-keyed leaf (ios-trustkit rejects it), a refused connection
    /// (an error for both), and today's chain (both trust it), probed in the reverse of the order shown.
    @Test func theWorstRowsComeFirstAndAnAppProbeKeepsTheOtherAppsCells() throws {
        let good = try ServeFixture.goodServer()
        defer { good.stop() }
        let rotated = try ServeFixture.rotatedServer()
        defer { rotated.stop() }
        let closed = try HostilePeer.refusedPort()
        let targets = [good.port, closed, rotated.port].map(ServeFixture.target)
        try ServeFixture.withExporter(targets: targets) { exporter, _ in
            for target in targets { _ = try exporter.client.probe(target, ServeProbeTests.domain) }
            let rows = try Self.fleet(exporter)

            #expect(rows.map(\.target) == [targets[2], targets[1], targets[0]].map { "\($0)as api.example.com" })
            #expect(rows[0].cells.map(Self.cell) == [
                Cell(app: "okhttp-sdk", platform: "", verdict: "trusted", reason: "pin-matched"),
                Cell(app: "ios-trustkit", platform: "", verdict: "rejected", reason: "public-key-not-pinned"),
            ])
            #expect(rows[1].cells.map(Self.cell) == [
                Cell(app: "okhttp-sdk", platform: "", verdict: "error", reason: "refused"),
                Cell(app: "ios-trustkit", platform: "", verdict: "error", reason: "refused"),
            ])
            #expect(rows[2].cells.map(Self.cell).map(\.verdict) == ["trusted", "trusted"])
            // okhttp-sdk pins the root alone: a new CA breaks it at the root's notAfter.
            #expect(rows[2].cells[0].descendants.first { $0.classes.contains("breaks") }?.text
                    == "breaks in \(Self.daysTo2125) days (2125-01-01)")

            // The rotated target served today's chain again, probed for okhttp-sdk alone: ios-trustkit's cell keeps
            // the verdict of the last probe that judged it.
            try rotated.serve(chainPEM: [LibraryCerts.path("leaf-chain.pem")], keyPath: LibraryCerts.path("leaf.key"))
            _ = try exporter.client.probe(targets[2], ServeProbeTests.domain + [("app", "okhttp-sdk")])
            let after = try Self.fleet(exporter)
            #expect(after[0].target == "\(targets[2])as api.example.com")
            #expect(after[0].cells.map(Self.cell).map(\.verdict) == ["trusted", "rejected"])

            // A reload: every verdict was judged by the file read before, and says so.
            exporter.signal(SIGHUP)
            #expect(exporter.waitForLog("policy file reloaded"), "\(exporter)")
            let reloaded = try Self.fleet(exporter)
            #expect(reloaded.flatMap(\.cells).allSatisfy { $0.classes.contains("stale") })
            #expect(reloaded.flatMap(\.cells).count == 6)
        }
    }

    /// What a policy file names is data on the page: an app named like markup renders as text, not as elements.
    @Test func hostileNamesRenderAsText() throws {
        let name = "<img src=x onerror=alert(1)>\"'&amp;"
        try TemporaryDirectory.with { directory in
            let text = ServeFixture.policyFile(targets: ["127.0.0.1:1"])
                .replacingOccurrences(of: "name: okhttp-sdk",
                                      with: "name: '\(name.replacingOccurrences(of: "'", with: "''"))'")
            let file = try directory.write("pinctl.yaml", text: text)
            let exporter = try ServeProcess(["--config", file] + ServeFixture.at)
            defer { exporter.stop() }
            let dom = try HeadlessBrowser.renderedDOM("http://127.0.0.1:\(exporter.port)/")
            #expect(!dom.descendants.contains { $0.tag == "img" || $0.tag == "script" })
            let headers = dom.descendants.filter { $0.tag == "th" && $0.attribute("scope") == "col" }.map(\.text)
            #expect(headers.first?.hasPrefix(name) == true, "\(headers)")
        }
    }
}
