import Foundation
import TestSupport

/// A policy file that is valid and takes long to load, for reloads that run long whatever pinctl fixes in other
/// readers: its anchors are a 4 MiB bundle (the fixture root again and again) listed many times, and every copy is
/// parsed, as it must be. Minutes of parsing on any machine; the test ends it when it has seen what it wanted by
/// putting the root alone in the bundle's place, so the copies left are read in no time.
enum SlowReload {
    /// Times the bundle is listed.
    static let listed = 40

    /// Starts `pinctl serve ARGUMENTS` on the fixture's policy file (two apps) in a new temporary directory, writes
    /// the slow policy file (three apps) in its place, and runs `body` with the exporter and what ends the slowness;
    /// a SIGHUP then starts the slow reload.
    static func withExporter<T>(_ arguments: [String], _ body: (ServeProcess, _ release: () throws -> Void) throws -> T)
        throws -> T
    {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: ServeFixture.policyFile(targets: []))
            let root = try String(contentsOfFile: LibraryCerts.path("root-ca.pem"), encoding: .utf8)
            let bundle = try directory.write("bundle.pem", text: String(repeating: root, count: (4 << 20) / root.count))
            let exporter = try ServeProcess(["--config", file] + ServeFixture.at + arguments)
            defer { exporter.stop() }
            let anchors = [LibraryCerts.path("root-ca.pem")] + Array(repeating: bundle, count: listed)
            let slow = ServeFixture.policyFile(targets: [], caFiles: anchors) + """

                  - name: okhttp-backup
                    library: okhttp
                    policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "root-ca.pem"))] } }

                """
            try slow.write(toFile: file, atomically: true, encoding: .utf8)
            return try body(exporter) { try root.write(toFile: bundle, atomically: true, encoding: .utf8) }
        }
    }

    /// The status page once it contains `text`, asked every 50 ms for at most 30 s; nil if it never does.
    static func waitForStatus(_ text: String, _ exporter: ServeProcess) -> String? {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let page = try? exporter.client.get("/", seconds: 5), page.body.contains(text) { return page.body }
            usleep(50_000)
        }
        return nil
    }

    /// Waits until the log says "policy file reloaded" `count` times.
    static func waitForReloads(_ count: Int, _ exporter: ServeProcess, seconds: Double) -> Bool {
        exporter.process.waitForOutput(seconds: seconds) { log in
            log.components(separatedBy: "policy file reloaded").count - 1 >= count ? true : nil
        } ?? false
    }
}
