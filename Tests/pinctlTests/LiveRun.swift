import Foundation
import Testing
import TestSupport

/// What the end-to-end tests of the live commands share: the fixed anchors and time, the servers, JSON lines, timing.
enum LiveRun {
    /// `--ca-file root-ca.pem` stands in for the system store; `--at` fixes the evaluation time.
    static let anchors = ["--ca-file", "root-ca.pem", "--at", TestTime.nowText]

    /// A loopback server presenting leaf.pem and intermediate-ca.pem, as a correctly configured server does.
    static func server(host: String = "127.0.0.1") throws -> TLSTestServer {
        try TLSTestServer(chainPEM: [Certs.path("leaf.pem"), Certs.path("intermediate-ca.pem")],
                          keyPath: Certs.path("leaf.key"), host: host)
    }

    /// A loopback server presenting leaf.pem alone: the intermediate is missing.
    static func leafOnlyServer() throws -> TLSTestServer {
        try TLSTestServer(chainPEM: Certs.path("leaf.pem"), keyPath: Certs.path("leaf.key"))
    }

    /// Runs `pinctl arguments` in certs/ and measures the whole process in seconds.
    static func timed(_ arguments: [String]) throws -> (PinctlProcess.Result, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try PinctlProcess.run(arguments)
        return (result, (clock.now - start) / .seconds(1))
    }

    /// How much longer than its timeout a run may take: 1.5 s, plus what starting a pinctl process costs now, which
    /// under AddressSanitizer on a loaded machine is itself a second or more.
    static func slack() throws -> Double {
        1.5 + (try startup())
    }

    /// DESIGN §11's bound for a peer that misbehaves: `--timeout` plus one second, plus what starting pinctl costs
    /// now (AddressSanitizer, load).
    static func failureBound(timeout: Double) throws -> Double {
        timeout + 1 + (try startup())
    }

    /// What a pinctl process costs on this machine now besides waiting: the wall time of a `check` of a port that
    /// refuses at once, which starts, parses its command line as every run does (ArgumentParser's reflection: under
    /// AddressSanitizer about a second), fails and exits. `--version` skips the parsing, and bounds made with it were
    /// missed by 0.1–0.2 s under ASan in CI (StartTLS's and revocation's silent peers).
    static func startup() throws -> Double {
        try timed(["check", "127.0.0.1:\(try HostilePeer.refusedPort())", "--timeout", "1"]).1
    }

    /// Every line of `text` parsed as one JSON object.
    static func objects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                         "not a JSON object: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// The one JSON object `text` holds.
    static func object(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let all = try objects(text, sourceLocation: sourceLocation)
        try #require(all.count == 1, "expected one JSON line, got \(all.count)", sourceLocation: sourceLocation)
        return all[0]
    }

    /// `reason.code` of a JSON report.
    static func reasonCode(_ object: [String: Any]) -> String? {
        (object["reason"] as? [String: Any])?["code"] as? String
    }

    /// The `sha256/BASE64` SPKI pin of a certificate file, from certs/spki-pins.txt.
    static func pin(of file: String) -> String { Certs.spkiPin(of: file) }

    /// The non-empty lines of `text`.
    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }
}
