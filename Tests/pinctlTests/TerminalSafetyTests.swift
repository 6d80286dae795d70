import Foundation
import Testing
import TestSupport

/// What a server, a certificate or a file name says reaches the terminal as visible escapes, never as control
/// sequences: a SAN of `evil\e[2J\e]0;owned\a.test` must not clear the screen or retitle the window.
@Suite struct TerminalSafetyTests {
    /// ESC and BEL: the bytes every terminal control sequence above needs.
    static func hasControlBytes(_ text: String) -> Bool { text.utf8.contains(0x1B) || text.utf8.contains(0x07) }

    static let hostileSAN = "DNS:evil\u{1B}[2J\u{1B}]0;owned\u{07}.test"

    /// A self-signed certificate whose only name holds terminal control sequences.
    private func hostileCertificate(in directory: TemporaryDirectory) throws -> String {
        try OpenSSLCLI.selfSigned("evil", subject: "/CN=evil", subjectAltName: Self.hostileSAN, in: directory.path)
        return directory.path("evil.pem")
    }

    @Test func chainOfAHostileCertificateShowsItsNameEscaped() throws {
        try TemporaryDirectory.with { directory in
            let evil = try hostileCertificate(in: directory)
            let result = try PinctlProcess.run(["chain", "--chain", evil, "--ca-file", evil, "--at", OpenSSLCLI.validTime])
            #expect(result.status == 0, "\(result)")
            #expect(!Self.hasControlBytes(result.stdout + result.stderr), "\(result)")
            #expect(result.stdout.contains("DNS:evil\\x1B[2J\\x1B]0;owned\\x07.test"), "\(result)")
        }
    }

    @Test func hostnameMismatchMessageShowsTheNamesEscaped() throws {
        try TemporaryDirectory.with { directory in
            let evil = try hostileCertificate(in: directory)
            for quiet in [false, true] {
                let result = try PinctlProcess.run(
                    ["verify", "--chain", evil, "--ca-file", evil, "--host", "other.test", "--at", OpenSSLCLI.validTime]
                        + (quiet ? ["--quiet"] : []))
                #expect(result.status == 1, "\(result)")
                #expect(result.stdout.contains("host name mismatch") || result.stderr.contains("host name mismatch"))
                #expect(!Self.hasControlBytes(result.stdout + result.stderr), "\(result)")
            }
        }
    }

    @Test func aServedHostileCertificateIsEscapedInChainAndCheck() throws {
        try TemporaryDirectory.with { directory in
            let evil = try hostileCertificate(in: directory)
            let server = try TLSTestServer(chainPEM: evil, keyPath: directory.path("evil.key"))
            defer { server.stop() }
            let target = "127.0.0.1:\(server.port)"
            let anchors = ["--ca-file", evil, "--at", OpenSSLCLI.validTime]
            let chain = try PinctlProcess.run(["chain", target] + anchors)
            #expect(chain.status == 0, "\(chain)")
            #expect(!Self.hasControlBytes(chain.stdout + chain.stderr), "\(chain)")
            let check = try PinctlProcess.run(["check", target, "--servername", "other.test"] + anchors)
            #expect(check.status == 1, "\(check)")
            #expect(!Self.hasControlBytes(check.stdout + check.stderr), "\(check)")
            #expect(check.stdout.contains("\\x1B[2J"), "\(check)")
        }
    }

    @Test func aHostileFileNameIsEscapedInEveryMessage() throws {
        try TemporaryDirectory.with { directory in
            let name = directory.path("\u{1B}[2Jchain\u{07}.pem")
            try Data(Certs.bytes("leaf-chain.pem")).write(to: URL(fileURLWithPath: name))
            let verify = try PinctlProcess.run(["verify", "--chain", name, "--mode", "publickey"] + LiveRun.anchors)
            #expect(verify.status == 1, "\(verify)")
            #expect(!Self.hasControlBytes(verify.stdout + verify.stderr), "\(verify)")
            #expect(verify.stdout.contains("\\x1B[2Jchain\\x07.pem"), "\(verify)")
            let missing = try PinctlProcess.run(["verify", "--chain", name + "-missing"])
            #expect(missing.status == 2, "\(missing)")
            #expect(!Self.hasControlBytes(missing.stdout + missing.stderr), "\(missing)")
            let out = directory.path("out\u{1B}]0;owned\u{07}")
            let extract = try PinctlProcess.run(["extract", "--chain", name, "--out", out] + LiveRun.anchors)
            #expect(extract.status == 0, "\(extract)")
            #expect(!Self.hasControlBytes(extract.stdout + extract.stderr), "\(extract)")
        }
    }

    @Test func aHostileServerNameOrHostIsAUsageErrorShownEscaped() throws {
        let servername = try PinctlProcess.run(["check", "127.0.0.1:9", "--servername", "evil\u{1B}[2J.test"])
        #expect(servername.status == 2, "\(servername)")
        #expect(!Self.hasControlBytes(servername.stdout + servername.stderr), "\(servername)")
        let host = try PinctlProcess.run(["verify", "--chain", "leaf.pem", "--host", "evil\u{1B}]0;x\u{07}.test"])
        #expect(host.status == 2, "\(host)")
        #expect(!Self.hasControlBytes(host.stdout + host.stderr), "\(host)")
    }
}
