import Foundation
import OpenSSLWrapper
import Testing
import TestSupport
import Transport

/// Every way a connection can fail ends in the right `TLSConnectionError.Kind`, names the target, and never takes
/// much longer than the timeout.
@Suite("TLSClient failures", .serialized)
struct TLSClientFailureTests {
    struct Hostile: Sendable, CustomTestStringConvertible {
        let behaviour: HostilePeer.Behaviour
        let kind: TLSConnectionError.Kind
        /// A phrase the message must contain besides the target.
        let says: String

        var testDescription: String { "\(behaviour) → \(kind.rawValue)" }
        var isTimeout: Bool { kind == .timeout }
    }

    static let hostile = [
        Hostile(behaviour: .silent, kind: .timeout, says: "(the peer sent nothing)"),
        Hostile(behaviour: .neverAccepts, kind: .timeout, says: "no TCP connection"),
        Hostile(behaviour: .stallMidHandshake, kind: .timeout, says: "sent 6 bytes, then stalled"),
        Hostile(behaviour: .plainHTTP, kind: .notTLS, says: "it answered 'HTTP/1.1 400 Bad Request'"),
        Hostile(behaviour: .randomBytes, kind: .notTLS, says: "not a TLS record"),
        Hostile(behaviour: .reset, kind: .reset, says: "during the TLS handshake"),
        Hostile(behaviour: .hugeChain, kind: .handshake, says: "\(HostilePeer.hugeChainLength) certificates"),
    ]

    static let timeout = 1.0

    @Test(arguments: hostile)
    func hostilePeerEndsInTheRightKindWithinTheTimeout(_ peer: Hostile) throws {
        let hostile = try HostilePeer(peer.behaviour)
        defer { hostile.stop() }

        let (error, seconds) = failure(host: "127.0.0.1", port: hostile.port, timeout: Self.timeout)

        #expect(error?.kind == peer.kind, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("127.0.0.1:\(hostile.port)") == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains(peer.says) == true, "\(error?.message ?? "no error")")
        #expect(seconds < Self.timeout + 1)
        if peer.isTimeout { #expect(seconds >= Self.timeout * 0.9, "gave up before the deadline") }
    }

    @Test func unresolvableNameIsADNSError() {
        let (error, seconds) = failure(host: "nowhere.invalid", port: 443, timeout: 2)

        #expect(error?.kind == .dns)
        #expect(error?.message.hasPrefix("cannot resolve nowhere.invalid: ") == true, "\(error?.message ?? "no error")")
        #expect(seconds < 3)
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func closedPortIsRefused(_ host: String) throws {
        let port = try HostilePeer.refusedPort(host: host)
        let target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"

        let (error, seconds) = failure(host: host, port: port, timeout: 2)

        #expect(error?.kind == .refused)
        #expect(error?.message == "connection refused by \(target)")
        #expect(seconds < 3)
    }

    @Test func ipv4LiteralCannotBeReachedOverIPv6Only() {
        let (error, _) = failure(host: "127.0.0.1", port: 443, timeout: 2, family: .ipv6)

        #expect(error?.kind == .dns)
        #expect(error?.message.hasPrefix("cannot resolve 127.0.0.1 to an IPv6 address: ") == true)
    }

    @Test func ipv4OnlyServerIsNotReachedOverIPv6Only() throws {
        // "localhost" has no IPv6 address on some machines (.dns) and ::1 on others, where nothing listens (.refused).
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let (error, seconds) = failure(host: "localhost", port: server.port, timeout: 2, family: .ipv6)

        #expect(error?.kind == .dns || error?.kind == .refused, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("localhost") == true)
        #expect(server.handshakesCompleted == 0)
        #expect(seconds < 3)
    }

    @Test func hungResolverIsAbandonedAtTheDeadline() {
        let hangs: NameResolver.Lookup = { _, _, _ in
            Thread.sleep(forTimeInterval: 5)
            return .failure(.init(reason: "too late"))
        }
        let clock = ContinuousClock()
        let start = clock.now
        var caught: TLSConnectionError?
        do {
            _ = try NameResolver.resolve(
                host: "slow.test", port: 443, family: .any, deadline: Deadline(seconds: 0.5), lookup: hangs)
        } catch {
            caught = error
        }
        let seconds = (clock.now - start) / .seconds(1)

        #expect(caught?.kind == .timeout)
        #expect(caught?.message == "no DNS answer for slow.test:443 within 0.5 s")
        #expect(seconds >= 0.45 && seconds < 1.5)
    }

    @Test func everyAddressRefusedReportsTheLastOne() throws {
        let ports = try [HostilePeer.refusedPort(), HostilePeer.refusedPort()]
        let addresses = try ports.flatMap {
            try NameResolver.resolve(host: "127.0.0.1", port: $0, family: .any, deadline: Deadline(seconds: 1))
        }

        let (error, _) = failure(host: "two.test", port: 443, timeout: 2, lookup: { _, _, _ in .success(addresses) })

        #expect(error?.kind == .refused)
        #expect(error?.message == "connection refused by two.test:443 (127.0.0.1:\(ports[1]))")
    }

    @Test func oneDeadlineBoundsResolutionConnectAndHandshakeTogether() throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let address = try NameResolver.resolve(
            host: "127.0.0.1", port: silent.port, family: .any, deadline: Deadline(seconds: 1))
        let slowLookup: NameResolver.Lookup = { _, _, _ in
            Thread.sleep(forTimeInterval: 0.6)
            return .success(address)
        }

        let (error, seconds) = failure(host: "slow.test", port: silent.port, timeout: 1, lookup: slowLookup)

        // 0.6 s resolving leaves 0.4 s for the handshake: the timeout bounds the stages together, not each one.
        #expect(error?.kind == .timeout)
        #expect(error?.message.hasPrefix("no TLS handshake with slow.test:\(silent.port) within 1 s") == true)
        #expect(seconds >= 0.9 && seconds < 1.4, "took \(seconds) s")
    }

    @Test func zeroTimeoutFailsAtOnce() throws {
        let server = try TLSTestServer(chainPEM: Certs.path("leaf-chain.pem"), keyPath: Certs.path("leaf.key"))
        defer { server.stop() }

        let (error, seconds) = failure(host: "127.0.0.1", port: server.port, timeout: 0)

        #expect(error?.kind == .timeout)
        #expect(seconds < 0.5)
    }

    /// Runs a handshake expected to fail; returns its error (nil if it succeeded) and how long it took in seconds.
    private func failure(
        host: String, port: UInt16, timeout: Double, family: AddressFamily = .any,
        lookup: @escaping NameResolver.Lookup = NameResolver.systemLookup
    ) -> (TLSConnectionError?, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try TLSClient.handshake(host: host, port: port, options: .init(
                serverName: "pinning.test", timeout: timeout, family: family), lookup: lookup)
            return (nil, (clock.now - start) / .seconds(1))
        } catch {
            return (error, (clock.now - start) / .seconds(1))
        }
    }
}
