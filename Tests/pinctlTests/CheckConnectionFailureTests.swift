import Foundation
import Testing
import TestSupport

/// `pinctl check` against peers that are not working TLS servers: exit 3, one line on stderr naming the target and
/// the failure, a JSON `error` verdict with DESIGN §2's code, and never much longer than `--timeout`.
@Suite struct CheckConnectionFailureTests {
    enum Peer: Sendable {
        case hostile(HostilePeer.Behaviour)
        case refusedPort
        case unresolvable
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let peer: Peer
        let code: String
        /// A phrase the stderr line must hold besides the target.
        let says: String
        var testDescription: String {
            switch peer {
            case .hostile(let behaviour): "\(behaviour) → \(code)"
            case .refusedPort: "refused port → \(code)"
            case .unresolvable: "nowhere.invalid → \(code)"
            }
        }
        var isTimeout: Bool { code == "timeout" }
    }

    static let failures = [
        Failure(peer: .hostile(.silent), code: "timeout", says: "the peer sent nothing"),
        Failure(peer: .hostile(.neverAccepts), code: "timeout", says: "no TCP connection"),
        Failure(peer: .hostile(.stallMidHandshake), code: "timeout", says: "then stalled"),
        Failure(peer: .hostile(.plainHTTP), code: "not-tls", says: "HTTP/1.1 400 Bad Request"),
        Failure(peer: .hostile(.randomBytes), code: "not-tls", says: "not a TLS record"),
        Failure(peer: .hostile(.reset), code: "reset", says: "during the TLS handshake"),
        Failure(peer: .hostile(.hugeChain), code: "handshake", says: "\(HostilePeer.hugeChainLength) certificates"),
        Failure(peer: .refusedPort, code: "refused", says: "connection refused"),
        Failure(peer: .unresolvable, code: "dns", says: "cannot resolve"),
    ]

    static let timeout = 1.0

    @Test(arguments: failures)
    func failedConnectionExitsThreeWithOneLineNamingTheTarget(_ failure: Failure) throws {
        let (target, names, stop) = try start(failure.peer)
        defer { stop() }
        let arguments = ["check", target, "--servername", "pinning.test", "--timeout", "\(Self.timeout)"]
            + LiveRun.anchors

        let slack = try LiveRun.slack()
        let (text, seconds) = try LiveRun.timed(arguments)
        #expect(text.status == 3, "\(text)")
        #expect(text.stdout.isEmpty, "\(text)")
        let lines = LiveRun.lines(text.stderr)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains(names) == true, "\(text)")
        #expect(lines.first?.contains(failure.says) == true, "\(text)")
        #expect(seconds < Self.timeout + slack, "took \(seconds) s")
        if failure.isTimeout { #expect(seconds >= Self.timeout * 0.9, "gave up after \(seconds) s, before --timeout") }

        let (json, jsonSeconds) = try LiveRun.timed(arguments + ["--format", "json"])
        #expect(json.status == 3, "\(json)")
        let object = try LiveRun.object(json.stdout)
        #expect(object["verdict"] as? String == "error")
        #expect(object["target"] as? String == (target.contains(":") ? target : target + ":443"))
        #expect(object["domain"] as? String == "pinning.test")
        #expect(LiveRun.reasonCode(object) == failure.code, "\(json)")
        #expect(LiveRun.lines(json.stderr).count == 1, "\(json)")
        #expect(jsonSeconds < Self.timeout + slack, "took \(jsonSeconds) s")
    }

    @Test func everyTargetOfSeveralFailsOnItsOwnWithinTheTimeout() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let stalled = try HostilePeer(.stallMidHandshake)
        defer { stalled.stop() }
        let server = try LiveRun.server()
        defer { server.stop() }
        let targets = ["127.0.0.1:\(silent.port)", "127.0.0.1:\(server.port)", "127.0.0.1:\(stalled.port)"]

        // The same run without the peers that never answer: what the work costs here and now (a lot, under ASan).
        let work = try LiveRun.timed(["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test",
                                      "--format", "json"] + LiveRun.anchors).1
        let (result, seconds) = try LiveRun.timed(["check"] + targets + ["--servername", "pinning.test", "--timeout",
                                                                          "\(Self.timeout)", "--format", "json"]
            + LiveRun.anchors)

        #expect(result.status == 3, "\(result)")
        let objects = try LiveRun.objects(result.stdout)
        #expect(objects.map { $0["verdict"] as? String } == ["error", "trusted", "error"])
        // One after the other, the two timeouts would take 2 × --timeout besides starting the process.
        #expect(seconds < work + Self.timeout * 1.9, "the targets' timeouts run concurrently: took \(seconds) s")
    }

    /// Starts the peer; returns the target to check, what the error line must name, and how to stop the peer.
    private func start(_ peer: Peer) throws -> (target: String, names: String, stop: () -> Void) {
        switch peer {
        case .hostile(let behaviour):
            let hostile = try HostilePeer(behaviour)
            let target = "127.0.0.1:\(hostile.port)"
            return (target, target, { hostile.stop() })
        case .refusedPort:
            let target = "127.0.0.1:\(try HostilePeer.refusedPort())"
            return (target, target, {})
        case .unresolvable:
            return ("nowhere.invalid", "nowhere.invalid", {})
        }
    }
}
