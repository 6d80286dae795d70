/// The address ranges a revocation fetch stays out of unless `--revocation-allow-private`: everything that is not a
/// public unicast address on the internet, where an OCSP responder or a CRL of a public CA lives.
enum NonPublicRange {
    /// What `bytes` (4 or 16, network order) are, e.g. "a loopback address (127.0.0.0/8)"; nil for a public address.
    static func of(_ bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16: ipv6(bytes)
        default: "an address of unknown length"
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> String? {
        switch (a, b) {
        case (0, _): "an address of this network (0.0.0.0/8)"
        case (10, _): "a private address (10.0.0.0/8, RFC 1918)"
        case (100, 64...127): "a carrier-grade NAT address (100.64.0.0/10)"
        case (127, _): "a loopback address (127.0.0.0/8)"
        case (169, 254):
            // The cloud metadata service: where an SSRF pays most.
            c == 169 && d == 254 ? "the cloud metadata address (169.254.169.254, link-local)"
                : "a link-local address (169.254.0.0/16)"
        case (172, 16...31): "a private address (172.16.0.0/12, RFC 1918)"
        case (192, 168): "a private address (192.168.0.0/16, RFC 1918)"
        case (192, 0) where c == 0: "an IETF protocol address (192.0.0.0/24)"
        case (198, 18...19): "a benchmarking address (198.18.0.0/15)"
        case (224...239, _): "a multicast address (224.0.0.0/4)"
        case (240..., _): "a reserved or broadcast address (240.0.0.0/4)"
        default: nil
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> String? {
        let head = bytes[0..<10].allSatisfy { $0 == 0 }
        if head, bytes[10] == 0xFF, bytes[11] == 0xFF {
            // ::ffff:a.b.c.d reaches the IPv4 address itself.
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15]).map { "IPv4-mapped, \($0)" }
        }
        if head, bytes[10] == 0, bytes[11] == 0 {
            if bytes[12..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 {
                return bytes[15] == 0 ? "the unspecified address (::)" : "the loopback address (::1)"
            }
            // Deprecated (RFC 4291 §2.5.5.1): where it still routes, it reaches the embedded IPv4 address.
            return "an IPv4-compatible address (::a.b.c.d, deprecated)"
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            // NAT64 (RFC 6052) translates to the embedded IPv4 address.
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15]).map { "NAT64 (64:ff9b::/96) of \($0)" }
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            // 6to4 (RFC 3056) tunnels to the embedded IPv4 address.
            return ipv4(bytes[2], bytes[3], bytes[4], bytes[5]).map { "6to4 (2002::/16) of \($0)" }
        }
        switch (bytes[0], bytes[1] & 0xC0) {
        case (0xFC...0xFD, _): return "a unique local address (fc00::/7)"
        case (0xFE, 0x80): return "a link-local address (fe80::/10)"
        case (0xFE, 0xC0): return "a site-local address (fec0::/10, deprecated)"
        case (0xFF, _): return "a multicast address (ff00::/8)"
        default: return nil
        }
    }
}
