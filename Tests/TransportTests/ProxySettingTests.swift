import Foundation
import Testing
@testable import Transport

/// The proxy settings as curl reads them: the URL form, `no_proxy` matching, and which variable wins. Expected
/// values are written by hand from curl's documentation and lib/noproxy.c.
@Suite struct ProxySettingTests {
    struct Bypass: Sendable, CustomTestStringConvertible {
        let list: String
        let host: String
        let bypasses: Bool
        var testDescription: String { "no_proxy=\(list) \(host) → \(bypasses ? "direct" : "proxy")" }
    }

    static let bypasses = [
        Bypass(list: "*", host: "anything.example", bypasses: true),
        Bypass(list: "example.com", host: "example.com", bypasses: true),
        Bypass(list: "example.com", host: "www.example.com", bypasses: true),
        Bypass(list: "example.com", host: "WWW.Example.COM", bypasses: true),
        Bypass(list: "example.com", host: "example.com.", bypasses: true),
        Bypass(list: "example.com", host: "notexample.com", bypasses: false),
        Bypass(list: "example.com", host: "example.org", bypasses: false),
        Bypass(list: ".example.com", host: "example.com", bypasses: true),
        Bypass(list: ".example.com", host: "api.example.com", bypasses: true),
        Bypass(list: "example.com.", host: "example.com", bypasses: true),
        Bypass(list: "a.test, b.test", host: "b.test", bypasses: true),
        Bypass(list: "a.test b.test", host: "x.b.test", bypasses: true),
        Bypass(list: "a.test,,b.test", host: "c.test", bypasses: false),
        Bypass(list: "10.0.0.0/8", host: "10.1.2.3", bypasses: true),
        Bypass(list: "10.0.0.0/8", host: "11.0.0.1", bypasses: false),
        Bypass(list: "192.168.1.1", host: "192.168.1.1", bypasses: true),
        Bypass(list: "192.168.1.1", host: "192.168.1.2", bypasses: false),
        // curl compares the whole address when the prefix length is 0.
        Bypass(list: "10.0.0.0/0", host: "10.0.0.1", bypasses: false),
        Bypass(list: "172.16.0.0/12", host: "172.31.255.255", bypasses: true),
        Bypass(list: "172.16.0.0/12", host: "172.32.0.1", bypasses: false),
        Bypass(list: "::1", host: "::1", bypasses: true),
        Bypass(list: "[::1]", host: "[::1]", bypasses: true),
        Bypass(list: "fd00::/8", host: "fd12:3456::1", bypasses: true),
        Bypass(list: "fd00::/8", host: "fe80::1", bypasses: false),
        Bypass(list: "127.0.0.1", host: "localhost", bypasses: false),
        Bypass(list: "localhost", host: "127.0.0.1", bypasses: false),
    ]

    @Test(arguments: bypasses)
    func noProxyMatchesAsCurlDoes(_ row: Bypass) {
        #expect(NoProxyList(row.list).matches(row.host) == row.bypasses)
    }

    @Test func aProxyURLIsReadAsCurlReadsIt() throws {
        let full = try ProxyServer(parsing: "http://ci:p%40ss%3Aword@proxy.corp:3128/ignored", origin: "--proxy")
        #expect(full.host == "proxy.corp")
        #expect(full.port == 3128)
        // base64("ci:p@ss:word"), written by hand.
        #expect(full.authorization == "Basic Y2k6cEBzczp3b3Jk")
        #expect(full.description == "proxy proxy.corp:3128")

        let bare = try ProxyServer(parsing: "proxy.corp", origin: "HTTPS_PROXY")
        #expect(bare.port == 1080, "curl's default proxy port")
        #expect(bare.authorization == nil)

        let v6 = try ProxyServer(parsing: "http://[::1]:8080", origin: "--proxy")
        #expect(v6.host == "::1")
        #expect(v6.description == "proxy [::1]:8080")
        #expect(try ProxyServer(parsing: "HTTP://proxy:81", origin: "--proxy").port == 81)
    }

    @Test(arguments: ["socks5://u:secret@h:1080", "https://u:secret@h:443", "http://u:secret@h:0",
                      "http://u:secret@h:70000", "http://u:secret@", "http://u:secret@[::1", "http://u:%zz@h:1"])
    func aProxyURLPinctlCannotUseIsRefusedWithoutItsPassword(_ text: String) {
        #expect {
            _ = try ProxyServer(parsing: text, origin: "--proxy")
        } throws: { error in
            let message = (error as? ProxySettingError)?.description ?? ""
            return message.hasPrefix("--proxy") && !message.contains("secret")
        }
    }

    struct Choice: Sendable, CustomTestStringConvertible {
        let explicit: String?
        let environment: [String: String]
        let host: String
        let tls: String?
        let http: String?
        var testDescription: String { "\(explicit.map { "--proxy \($0) " } ?? "")\(environment)" }
    }

    static let choices = [
        Choice(explicit: nil, environment: [:], host: "api.test", tls: nil, http: nil),
        Choice(explicit: nil, environment: ["https_proxy": "a:1", "HTTPS_PROXY": "b:1"], host: "api.test",
               tls: "a", http: nil),
        Choice(explicit: nil, environment: ["HTTPS_PROXY": "b:1", "ALL_PROXY": "c:1"], host: "api.test",
               tls: "b", http: "c"),
        Choice(explicit: nil, environment: ["http_proxy": "d:1", "HTTP_PROXY": "e:1"], host: "api.test",
               tls: nil, http: "d"),
        Choice(explicit: nil, environment: ["HTTP_PROXY": "e:1"], host: "api.test", tls: nil, http: nil),
        Choice(explicit: nil, environment: ["all_proxy": "f:1", "ALL_PROXY": "g:1"], host: "api.test",
               tls: "f", http: "f"),
        Choice(explicit: nil, environment: ["https_proxy": "", "ALL_PROXY": "g:1"], host: "api.test",
               tls: nil, http: "g"),
        Choice(explicit: "x:1", environment: ["https_proxy": "a:1"], host: "api.test", tls: "x", http: "x"),
        Choice(explicit: "", environment: ["https_proxy": "a:1", "http_proxy": "d:1"], host: "api.test",
               tls: nil, http: nil),
        Choice(explicit: "x:1", environment: ["NO_PROXY": ".test"], host: "api.test", tls: nil, http: nil),
        Choice(explicit: nil, environment: ["https_proxy": "a:1", "no_proxy": "other.test", "NO_PROXY": "api.test"],
               host: "api.test", tls: "a", http: nil),
    ]

    @Test(arguments: choices)
    func theVariablesAreReadInCurlsOrder(_ choice: Choice) throws {
        let configuration = ProxyConfiguration(explicit: choice.explicit, environment: choice.environment)
        #expect(try configuration.proxy(forTLSHost: choice.host)?.host == choice.tls)
        #expect(try configuration.proxy(forHTTPHost: choice.host)?.host == choice.http)
    }
}
