import Foundation
import TestSupport

/// A policy file of two apps over certs/libraries/, judged at a fixed time, and the loopback servers to probe.
///
/// By hand: okhttp-sdk pins the root's key (every rotation under that root passes); ios-trustkit pins the leaf's key
/// and a backup never deployed, so a re-keyed leaf breaks it with public-key-not-pinned.
enum ServeFixture {
    static let domain = "api.example.com"
    static let at = ["--at", TestTime.nowText]

    /// The two apps, anchored on `caFiles` (the fixture root when not given).
    static func policyFile(targets: [String], caFiles: [String] = [LibraryCerts.path("root-ca.pem")]) -> String {
        """
        version: 1
        anchors: { ca-files: [\(caFiles.joined(separator: ", "))] }
        targets: [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))]
        apps:
          - name: okhttp-sdk
            library: okhttp
            policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "root-ca.pem"))] } }
          - name: ios-trustkit
            versions: ["3.1"]
            library: trustkit
            policy:
              domains:
                api.example.com:
                  publicKeyHashes:
                    - \(LibraryCerts.bareBase64(of: "leaf.pem"))
                    - \(LibraryCerts.bareBase64(of: "leaf-other-intermediate.pem"))
        """
    }

    /// Today's chain: leaf and intermediate under the fixture root.
    static func goodServer() throws -> TLSTestServer {
        try TLSTestServer(chainPEM: LibraryCerts.path("leaf-chain.pem"), keyPath: LibraryCerts.path("leaf.key"))
    }

    /// The same names after a re-key of the leaf.
    static func rotatedServer() throws -> TLSTestServer {
        try TLSTestServer(chainPEM: LibraryCerts.path("leaf-rekeyed-chain.pem"),
                          keyPath: LibraryCerts.path("leaf-rekeyed.key"))
    }

    /// Writes the policy file listing `targets` into a new temporary directory, starts `pinctl serve` on it with
    /// `arguments` (and `--at`), and runs `body`; the exporter is killed if `body` left it running.
    static func withExporter<T>(
        targets: [String], _ arguments: [String] = [], _ body: (ServeProcess, String) throws -> T
    ) throws -> T {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: policyFile(targets: targets))
            let exporter = try ServeProcess(["--config", file] + at + arguments)
            defer { exporter.stop() }
            return try body(exporter, file)
        }
    }

    static func target(_ port: UInt16) -> String { "127.0.0.1:\(port)" }
}
