import Testing
import Transport

/// `--resolve HOST:PORT:ADDR[,ADDR...]` in curl's form, and the ports `--starttls auto` knows.
@Suite struct ResolveEntryTests {
    @Test func addressesKeepTheirOrderAndBracketsAreOptional() throws {
        let entry = try ResolveEntry(parsing: "api.example.com:8443:127.0.0.2,[::1],::2,10.0.0.1")
        #expect(entry.host == "api.example.com")
        #expect(entry.port == 8443)
        #expect(entry.addresses.map(\.description) == ["127.0.0.2:8443", "[::1]:8443", "[::2]:8443", "10.0.0.1:8443"])
        #expect(entry.covers(host: "API.example.com", port: 8443))
        #expect(!entry.covers(host: "api.example.com", port: 443))
        #expect(!entry.covers(host: "www.api.example.com", port: 8443))
    }

    @Test(arguments: ["api.example.com:443", "api.example.com:0:127.0.0.1", "api.example.com:https:127.0.0.1",
                      ":443:127.0.0.1", "*:443:127.0.0.1", "api.example.com:443:", "api.example.com:443:127.0.0.1,",
                      "api.example.com:443:host.example", "api.example.com:443:[127.0.0.1"])
    func aMalformedEntryIsRefused(_ text: String) {
        #expect(throws: ResolveEntryError.self) { try ResolveEntry(parsing: text) }
    }

    @Test func autoKnowsTheWellKnownPortsOfEachProtocol() {
        let expected: [UInt16: StartTLSProtocol?] = [
            25: .smtp, 587: .smtp, 143: .imap, 110: .pop3, 21: .ftp, 5222: .xmpp, 5432: .postgres, 389: .ldap,
            443: nil, 465: nil, 993: nil, 995: nil, 636: nil, 8443: nil,
        ]
        for (port, name) in expected {
            #expect(StartTLSProtocol.wellKnown(port: port) == name, "port \(port)")
        }
    }
}
