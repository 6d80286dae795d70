import Foundation
import Testing
import TestSupport

/// `check` through an HTTP proxy: CONNECT with the target's name unresolved, the proxy variables read as curl reads
/// them, credentials, and every way a proxy fails ending in exit 3, code `proxy`, within `--timeout` + 1 s.
@Suite struct ProxyTests {
    static let proxyVariables = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY",
                                 "no_proxy", "NO_PROXY"]

    /// Runs pinctl with exactly `variables` among the proxy variables (the others unset, whatever the test runner
    /// has).
    static func run(_ arguments: [String], variables: [String: String] = [:]) throws -> PinctlProcess.Result {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let unset = proxyVariables.map { "-u \($0)" }.joined(separator: " ")
        let set = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }.joined(separator: " ")
        return try PinctlProcess.runShell("exec env \(unset) \(set) \"$PINCTL\" "
            + arguments.map(quoted).joined(separator: " "))
    }

    @Test func checkTunnelsThroughTheProxyWithTheNameUnresolved() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        // DNS does not know pinning.test: only the proxy can reach it.
        let proxy = try TestProxy(hosts: ["pinning.test": "127.0.0.1"])
        defer { proxy.stop() }
        let result = try Self.run(["check", "pinning.test:\(server.port)", "--proxy", proxy.url(), "--format", "json"]
            + LiveRun.anchors)
        #expect(result.status == 0, "\(result)")
        #expect(try LiveRun.object(result.stdout)["verdict"] as? String == "trusted")
        #expect(proxy.requests.map(\.line) == ["CONNECT pinning.test:\(server.port) HTTP/1.1"])
        #expect(proxy.requests.first?.authorization == nil)
        #expect(server.lastServerName == "pinning.test")
    }

    struct Setting: Sendable, CustomTestStringConvertible {
        let variables: [String: String]
        let flags: [String]
        /// Whether the connection must go through the working proxy (else directly).
        let throughProxy: Bool
        var testDescription: String {
            (variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + flags).joined(separator: " ")
        }
    }

    /// GOOD is the working proxy, DEAD a port that refuses: a setting that picks DEAD fails with exit 3.
    static let settings = [
        Setting(variables: ["https_proxy": "GOOD"], flags: [], throughProxy: true),
        Setting(variables: ["HTTPS_PROXY": "GOOD"], flags: [], throughProxy: true),
        Setting(variables: ["https_proxy": "GOOD", "HTTPS_PROXY": "DEAD"], flags: [], throughProxy: true),
        Setting(variables: ["all_proxy": "GOOD"], flags: [], throughProxy: true),
        Setting(variables: ["ALL_PROXY": "GOOD"], flags: [], throughProxy: true),
        Setting(variables: ["https_proxy": "GOOD", "ALL_PROXY": "DEAD"], flags: [], throughProxy: true),
        // curl never reads HTTP_PROXY, and http_proxy is for http:// URLs only.
        Setting(variables: ["HTTP_PROXY": "DEAD", "http_proxy": "DEAD"], flags: [], throughProxy: false),
        Setting(variables: ["https_proxy": "", "ALL_PROXY": "DEAD"], flags: [], throughProxy: false),
        Setting(variables: ["https_proxy": "DEAD", "NO_PROXY": "127.0.0.1"], flags: [], throughProxy: false),
        Setting(variables: ["https_proxy": "DEAD", "no_proxy": "example.com, 127.0.0.0/8"], flags: [],
                throughProxy: false),
        Setting(variables: ["https_proxy": "DEAD", "NO_PROXY": "*"], flags: [], throughProxy: false),
        Setting(variables: ["https_proxy": "DEAD", "NO_PROXY": "127.0.0.2"], flags: ["--proxy", "GOOD"],
                throughProxy: true),
        Setting(variables: ["https_proxy": "DEAD"], flags: ["--proxy", "GOOD"], throughProxy: true),
        Setting(variables: ["https_proxy": "GOOD"], flags: ["--proxy", ""], throughProxy: false),
        Setting(variables: ["https_proxy": "DEAD"], flags: ["--proxy", "GOOD", "--starttls", "auto"],
                throughProxy: true),
    ]

    @Test(arguments: settings)
    func theProxyIsChosenAsCurlChoosesIt(_ setting: Setting) throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let dead = "http://127.0.0.1:\(try HostilePeer.refusedPort())"
        func resolve(_ text: String) -> String {
            text.replacingOccurrences(of: "GOOD", with: proxy.url()).replacingOccurrences(of: "DEAD", with: dead)
        }
        let result = try Self.run(["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test"]
            + setting.flags.map(resolve) + LiveRun.anchors, variables: setting.variables.mapValues(resolve))
        #expect(result.status == 0, "\(result)")
        #expect(proxy.requests.count == (setting.throughProxy ? 1 : 0), "\(proxy.requests)")
    }

    @Test func credentialsArePercentDecodedAndSentAsBasic() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let proxy = try TestProxy(.requiresCredentials(user: "ci", password: "s3cret:/@"))
        defer { proxy.stop() }
        let base = ["check", "127.0.0.1:\(server.port)", "--servername", "pinning.test"] + LiveRun.anchors

        let good = try Self.run(base + ["--proxy", "http://ci:s3cret%3A%2F%40@127.0.0.1:\(proxy.port)"])
        #expect(good.status == 0, "\(good)")
        // base64("ci:s3cret:/@"), written by hand.
        #expect(proxy.requests.last?.authorization == "Basic Y2k6czNjcmV0Oi9A")

        let none = try Self.run(base + ["--proxy", proxy.url(), "--format", "json"])
        #expect(none.status == 3, "\(none)")
        let object = try LiveRun.object(none.stdout)
        #expect(LiveRun.reasonCode(object) == "proxy")
        #expect(none.stderr.contains("proxy 127.0.0.1:\(proxy.port) refused CONNECT 127.0.0.1:\(server.port): "
            + "'HTTP/1.1 407 Proxy Authentication Required' (it wants credentials"), "\(none)")

        let wrong = try Self.run(base + ["--proxy", "http://ci:wrong-secret@127.0.0.1:\(proxy.port)"])
        #expect(wrong.status == 3, "\(wrong)")
        #expect(wrong.stderr.contains("407 Proxy Authentication Required' (the credentials from --proxy were not "
            + "accepted)"), "\(wrong)")
        #expect(!wrong.stderr.contains("wrong-secret"), "the password is never printed")
    }

    struct Hostile: Sendable, CustomTestStringConvertible {
        let name: String
        let behaviour: TestProxy.Behaviour?
        let says: String
        var testDescription: String { name }
    }

    static let hostile = [
        Hostile(name: "502", behaviour: .answers("HTTP/1.1 502 Bad Gateway"), says: "refused CONNECT pinning.test"),
        Hostile(name: "403", behaviour: .answers("HTTP/1.0 403 Forbidden"), says: "'HTTP/1.0 403 Forbidden'"),
        Hostile(name: "close", behaviour: .closes, says: "closed the connection without answering"),
        Hostile(name: "silence", behaviour: .silent, says: "no answer from proxy 127.0.0.1:"),
        Hostile(name: "garbage", behaviour: .garbage, says: "with something that is not HTTP"),
        Hostile(name: "refused", behaviour: nil, says: "cannot reach proxy 127.0.0.1:"),
    ]

    @Test(arguments: hostile)
    func aFailingProxyIsExitThreeNamingTheProxyWithinTheTimeout(_ hostile: Hostile) throws {
        let proxy = try hostile.behaviour.map { try TestProxy($0) }
        defer { proxy?.stop() }
        let port = try proxy?.port ?? HostilePeer.refusedPort()
        let arguments = ["check", "pinning.test:443", "--proxy", "http://127.0.0.1:\(port)", "--timeout", "1"]
            + LiveRun.anchors
        let (text, seconds) = try LiveRun.timed(arguments)
        #expect(text.status == 3, "\(text)")
        let lines = LiveRun.lines(text.stderr)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains("proxy 127.0.0.1:\(port)") == true, "\(text)")
        #expect(lines.first?.contains(hostile.says) == true, "\(text)")
        let bound = try LiveRun.failureBound(timeout: 1)
        #expect(seconds < bound, "took \(seconds) s")

        let (json, _) = try LiveRun.timed(arguments + ["--format", "json"])
        #expect(LiveRun.reasonCode(try LiveRun.object(json.stdout)) == "proxy", "\(json)")
    }

    @Test func anUnknownProxyHostIsAProxyError() throws {
        let result = try Self.run(["check", "pinning.test", "--proxy", "http://nowhere.invalid:3128", "--timeout", "3",
                                   "--format", "json"])
        #expect(result.status == 3, "\(result)")
        #expect(LiveRun.reasonCode(try LiveRun.object(result.stdout)) == "proxy")
        #expect(result.stderr.contains("cannot reach proxy nowhere.invalid:3128: cannot resolve nowhere.invalid"))
    }

    @Test func aProxyPinctlCannotSpeakToIsAnInputError() throws {
        let flag = try Self.run(["check", "pinning.test", "--proxy", "socks5://user:pw@127.0.0.1:1080"])
        #expect(flag.status == 2, "\(flag)")
        #expect(flag.stderr.contains("--proxy socks5://…@127.0.0.1:1080: a socks5:// proxy is not supported"), "\(flag)")

        let variable = try Self.run(["check", "pinning.test", "--format", "json"],
                                    variables: ["HTTPS_PROXY": "socks5://127.0.0.1:1080"])
        #expect(variable.status == 2, "\(variable)")
        #expect(LiveRun.reasonCode(try LiveRun.object(variable.stdout)) == "input")
        #expect(variable.stderr.contains("HTTPS_PROXY socks5://127.0.0.1:1080: a socks5:// proxy is not supported"))
    }

    @Test func edgesThroughAProxyAskItForEachAddress() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let proxy = try TestProxy()
        defer { proxy.stop() }
        let port = server.port
        let result = try Self.run(["check", "pinning.test:\(port)", "--resolve", "pinning.test:\(port):127.0.0.1",
                                   "--all-addresses", "--tls", "1.2,1.3", "--proxy", proxy.url(), "--format", "json"]
            + LiveRun.anchors)
        #expect(result.status == 0, "\(result)")
        #expect(try LiveRun.objects(result.stdout).count == 2)
        #expect(proxy.requests.map(\.line) == Array(repeating: "CONNECT 127.0.0.1:\(port) HTTP/1.1", count: 2))
    }

    @Test func chainFetchesThroughTheProxyToo() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let proxy = try TestProxy(hosts: ["pinning.test": "127.0.0.1"])
        defer { proxy.stop() }
        let result = try Self.run(["chain", "pinning.test:\(server.port)", "--proxy", proxy.url(), "--format", "pem"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.components(separatedBy: "BEGIN CERTIFICATE").count - 1 == 2)
        #expect(proxy.requests.count == 1)
    }
}
