import OpenSSLWrapper
import Testing
import Transport

/// Which addresses a revocation fetch stays out of, address by address, the ranges written by hand from the RFCs
/// (1918, 6598, 3927, 4193, 4291, 6052, 3056) and IANA's special-purpose registries.
@Suite struct NonPublicAddressTests {
    static let refused = RevocationDestination(allowsPrivateAddresses: false)

    static let nonPublic: [(String, String)] = [
        ("0.0.0.0", "0.0.0.0/8"), ("0.1.2.3", "0.0.0.0/8"),
        ("10.0.0.1", "10.0.0.0/8"), ("10.255.255.255", "10.0.0.0/8"),
        ("100.64.0.1", "100.64.0.0/10"), ("100.127.255.254", "100.64.0.0/10"),
        ("127.0.0.1", "127.0.0.0/8"), ("127.255.0.9", "127.0.0.0/8"),
        ("169.254.169.254", "metadata"), ("169.254.0.1", "169.254.0.0/16"),
        ("172.16.0.1", "172.16.0.0/12"), ("172.31.255.255", "172.16.0.0/12"),
        ("192.168.1.1", "192.168.0.0/16"), ("192.0.0.8", "192.0.0.0/24"), ("198.18.0.1", "198.18.0.0/15"),
        ("224.0.0.1", "224.0.0.0/4"), ("239.255.255.250", "224.0.0.0/4"),
        ("240.0.0.1", "240.0.0.0/4"), ("255.255.255.255", "240.0.0.0/4"),
        ("::", "unspecified"), ("::1", "loopback"),
        ("::ffff:127.0.0.1", "IPv4-mapped"), ("::ffff:169.254.169.254", "metadata"), ("::ffff:10.1.2.3", "RFC 1918"),
        ("::127.0.0.1", "IPv4-compatible"), ("::8.8.8.8", "IPv4-compatible"),
        ("64:ff9b::a9fe:a9fe", "NAT64"), ("2002:7f00:1::", "6to4"),
        ("fc00::1", "fc00::/7"), ("fd12:3456::1", "fc00::/7"),
        ("fe80::1", "fe80::/10"), ("febf::1", "fe80::/10"), ("fec0::1", "fec0::/10"),
        ("ff02::1", "ff00::/8"),
    ]

    @Test(arguments: nonPublic)
    func aNonPublicAddressIsRefusedNamingItsRange(address: String, range: String) throws {
        let socket = try #require(SocketAddress(ipLiteral: address, port: 80))
        let found = try #require(Self.refused.refusedRange(of: socket), "\(address) was not refused")
        #expect(found.contains(range), "\(address): \(found)")
        #expect(RevocationDestination(allowsPrivateAddresses: true).refusedRange(of: socket) == nil)
        #expect(Self.refused.refusal(ofProxiedHost: address) != nil, "\(address) through a proxy")
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
                      "192.169.0.1", "169.253.1.1", "223.255.255.255", "2606:4700::1111", "2001:4860::8888",
                      "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::"])
    func aPublicAddressIsFetchedFrom(address: String) throws {
        let socket = try #require(SocketAddress(ipLiteral: address, port: 80))
        #expect(Self.refused.refusedRange(of: socket) == nil, "\(address)")
        #expect(Self.refused.refusal(ofProxiedHost: address) == nil, "\(address)")
    }

    /// Through a proxy only the URL's text is seen: a decimal or hex IPv4 a proxy would read, and localhost names.
    @Test(arguments: ["2130706433", "0x7f.1", "017700000001", "localhost", "LocalHost.", "api.localhost"])
    func aLoopbackSpelledOtherwiseIsRefusedThroughAProxy(host: String) {
        #expect(Self.refused.refusal(ofProxiedHost: host) != nil, "\(host)")
    }

    @Test(arguments: [("http://a.test/\r\nX: y", "carriage return (0x0D) at byte 14"),
                      ("http://a.test/\nX", "line feed (0x0A) at byte 14"), ("http://a.test/a b", "space (0x20)"),
                      ("http://a.test/\u{7F}", "DEL (0x7F)"), ("http://a.test/\u{0}", "control character (0x00)"),
                      ("http://a.test/é", "not ASCII (0xC3)"), ("http://a.test\t/", "control character (0x09)")])
    func aURLWithAByteNoRequestLineMayCarryIsRefused(url: String, expected: String) throws {
        let problem = try #require(RevocationDestination.unsafeByte(in: url))
        #expect(problem.contains(expected), "\(problem)")
    }

    @Test func aURLOfPrintableASCIIPasses() {
        #expect(RevocationDestination.unsafeByte(in: "http://ocsp.example.com:8080/a%0D%0A?b=c~") == nil)
    }
}
