/// OkHttp's canonical host (`toCanonicalHost`, okhttp3/internal/-HostnamesCommon.kt): the one form in which both a
/// `CertificatePinner` pattern and the URL's host (`HttpUrl` canonicalises it the same way) are compared.
///
///     if (":" in host) { decodeIpv6(host without its brackets) ?: return null; canonicalizeInetAddress; RFC 5952 }
///     val result = idnToAscii(host) ?: return null
///     if (result.isEmpty()) return null
///     if (result.containsInvalidHostnameAsciiCodes()) return null
///     if (result.containsInvalidLabelLengths()) return null
enum OkHttpHost {
    enum Canonical: Equatable {
        case host(String)
        /// `toCanonicalHost` returns null: OkHttp throws `Invalid pattern:` (or `Invalid URL host:`).
        case invalid
        /// Not ASCII: OkHttp maps it through its UTS #46 table and punycode, which pinctl does not carry.
        case needsIDNA
    }

    static func canonicalize(_ text: String) -> Canonical {
        let bytes = Array(text.utf8)
        if bytes.contains(UInt8(ascii: ":")) {
            // "If the input is encased in square braces "[...]", drop 'em": only on this IPv6 path, so `[a.com]`
            // keeps its brackets and is refused below as a name would be.
            let bracketed = bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]") && bytes.count >= 2
            guard let address = OkHttpIPv6.decode(bracketed ? Array(bytes.dropFirst().dropLast()) : bytes) else {
                return .invalid
            }
            return .host(OkHttpIPv6.canonicalText(address))
        }
        guard text.unicodeScalars.allSatisfy(\.isASCII) else { return .needsIDNA }
        // For ASCII, UTS #46's mapping with UseSTD3ASCIIRules=false (SimpleIdnaMappingTable) lower-cases A-Z and keeps
        // every other character: `_`, `*`, `{` and `!` pass. An `xn--` label is kept as written (lower-cased): OkHttp
        // decodes and re-encodes it, refusing malformed punycode, which pinctl does not check.
        let mapped = String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        guard !mapped.isEmpty, !containsInvalidHostnameASCIICodes(bytes), !containsInvalidLabelLengths(bytes) else {
            return .invalid
        }
        return .host(mapped)
    }

    /// `containsInvalidHostnameAsciiCodes`: control characters, DEL and the WHATWG host delimiters
    /// `" #%/:?@[\]"`.
    private static func containsInvalidHostnameASCIICodes(_ bytes: [UInt8]) -> Bool {
        bytes.contains { $0 <= 0x1F || $0 >= 0x7F || Array(" #%/:?@[\\]".utf8).contains($0) }
    }

    /// `containsInvalidLabelLengths`: "empty or greater than 253 characters, or if any label is longer than 63
    /// characters. Trailing dots are okay." The 253 counts the whole text, trailing dot and `*.` prefix included.
    private static func containsInvalidLabelLengths(_ bytes: [UInt8]) -> Bool {
        guard (1...253).contains(bytes.count) else { return true }
        var labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: ".") { labels.removeLast() }
        return labels.contains { !(1...63).contains($0.count) }
    }
}

/// OkHttp's IPv6 literals (`decodeIpv6`, `decodeIpv4Suffix`, `canonicalizeInetAddress`, `inet6AddressToAscii`), read
/// and written by OkHttp's own rules rather than inet_pton/inet_ntop's: glibc writes `::ffff:1.2.3.4` and `::1.2.3.4`
/// where OkHttp writes `1.2.3.4` and `::102:304`.
enum OkHttpIPv6 {
    /// The 16 bytes of an IPv6 literal (without brackets): groups of one to four hex digits, one `::` anywhere, an
    /// IPv4 tail after a group; nil for anything else.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var address = [UInt8](repeating: 0, count: 16)
        var filled = 0
        var compressAt = -1
        var groupStart = -1
        var index = 0
        while index < text.count {
            guard filled < 16 else { return nil }  // Too many groups.
            if index + 1 < text.count, text[index] == UInt8(ascii: ":"), text[index + 1] == UInt8(ascii: ":") {
                guard compressAt == -1 else { return nil }  // A second "::".
                index += 2
                filled += 2
                compressAt = filled
                if index == text.count { break }
            } else if filled != 0 {
                if text[index] == UInt8(ascii: ":") {
                    index += 1
                } else if text[index] == UInt8(ascii: ".") {
                    // The last group was the first octet of an IPv4 tail: read it again as decimal.
                    guard decodeIPv4Tail(text[groupStart...], into: &address, at: filled - 2) else { return nil }
                    filled += 2
                    break
                } else {
                    return nil
                }
            }
            var value = 0
            groupStart = index
            while index < text.count, let digit = hexDigit(text[index]) {
                value = (value &<< 4) | digit
                index += 1
            }
            let length = index - groupStart
            // After a "::" that fills the address (`1:2:3:4:5:6:7::8`) OkHttp indexes past its array: an
            // ArrayIndexOutOfBoundsException at build time rather than "Invalid pattern", a crash all the same.
            guard (1...4).contains(length), filled < 16 else { return nil }
            address[filled] = UInt8(value >> 8)
            address[filled + 1] = UInt8(value & 0xFF)
            filled += 2
        }
        if filled != 16 {
            guard compressAt != -1 else { return nil }  // Too few groups and no "::".
            let tail = Array(address[compressAt..<filled])
            for position in compressAt..<16 { address[position] = 0 }
            address.replaceSubrange((16 - tail.count)..<16, with: tail)
        }
        return address
    }

    /// `decodeIpv4Suffix`: exactly four decimal octets of 0-255 without leading zeros.
    private static func decodeIPv4Tail(_ text: ArraySlice<UInt8>, into address: inout [UInt8], at offset: Int) -> Bool {
        var position = offset
        var index = text.startIndex
        while index < text.endIndex {
            guard position < 16 else { return false }
            if position != offset {
                guard text[index] == UInt8(ascii: ".") else { return false }
                index += 1
            }
            var value = 0
            let start = index
            while index < text.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
                guard value != 0 || start == index else { return false }  // A leading zero.
                value = value * 10 + Int(text[index] - UInt8(ascii: "0"))
                guard value <= 255 else { return false }
                index += 1
            }
            guard index > start else { return false }
            address[position] = UInt8(value)
            position += 1
        }
        return position == offset + 4
    }

    /// An IPv4-mapped address (`::ffff:a.b.c.d`) as its IPv4 text, any other in RFC 5952 form: lower-case hex, the
    /// first longest run of two or more zero groups written `::`.
    static func canonicalText(_ address: [UInt8]) -> String {
        if address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF {
            return address[12...].map { String($0) }.joined(separator: ".")
        }
        let groups = stride(from: 0, to: 16, by: 2).map { Int(address[$0]) << 8 | Int(address[$0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < groups.count {
            let start = index
            while index < groups.count, groups[index] == 0 { index += 1 }
            if index - start > best.length, index - start >= 2 { best = (start, index - start) }
            index += 1
        }
        guard best.start >= 0 else { return groups.map { String($0, radix: 16) }.joined(separator: ":") }
        let head = groups[..<best.start].map { String($0, radix: 16) }.joined(separator: ":")
        let tail = groups[(best.start + best.length)...].map { String($0, radix: 16) }.joined(separator: ":")
        return head + "::" + tail
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
