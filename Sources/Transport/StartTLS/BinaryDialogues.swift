/// The binary upgrades: PostgreSQL's SSLRequest and LDAP's StartTLS extended operation.
extension StartTLSDialogue {
    /// SSLRequest: length 8, code 80877103 (1234 << 16 | 5679). The server answers one byte: 'S' to go on with TLS,
    /// 'N' to refuse; a server too old to know the request sends an ErrorResponse ('E') instead.
    func postgres() throws(TLSConnectionError) {
        do {
            try stream.write([0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F])
        } catch {
            throw failure(error, waitingFor: "answer to SSLRequest")
        }
        let answer = try read(count: 1, "answer to SSLRequest")
        switch answer[0] {
        case UInt8(ascii: "S"):
            return
        case UInt8(ascii: "N"):
            throw refused("SSLRequest", answer: "N (the server does not accept SSL connections)")
        case UInt8(ascii: "E"):
            throw refused("SSLRequest", answer: try postgresError())
        default:
            throw garbage("answer to SSLRequest", answer + stream.pending)
        }
    }

    /// The message field ('M') of an ErrorResponse whose type byte was read: Int32 length, then fields, each a type
    /// byte and a NUL-terminated string, ended by a zero byte.
    private func postgresError() throws(TLSConnectionError) -> String {
        let header = try read(count: 4, "error message")
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length >= 4, length <= Self.lineLimit else { throw garbage("error message", header) }
        let body = try read(count: length - 4, "error message")
        var fields = body.split(separator: 0, omittingEmptySubsequences: true)
        while let field = fields.first {
            fields.removeFirst()
            if field.first == UInt8(ascii: "M") { return String(decoding: field.dropFirst(), as: UTF8.self) }
        }
        return "an ErrorResponse without a message"
    }

    /// RFC 4511 §4.14.1: ExtendedRequest { requestName "1.3.6.1.4.1.1466.20037" } as message 1; the answer is an
    /// ExtendedResponse whose resultCode is success (0), or the reason the server refuses.
    func ldap() throws(TLSConnectionError) {
        let oid = Array("1.3.6.1.4.1.1466.20037".utf8)
        // SEQUENCE { INTEGER 1, [APPLICATION 23] { [0] oid } }, each length in short form (all below 128).
        let request: [UInt8] = [0x30, UInt8(oid.count + 7), 0x02, 0x01, 0x01, 0x77, UInt8(oid.count + 2), 0x80,
                                UInt8(oid.count)] + oid
        do {
            try stream.write(request)
        } catch {
            throw failure(error, waitingFor: "answer to the StartTLS request")
        }
        let step = "answer to the StartTLS request"
        let head = try read(count: 2, step)
        guard head[0] == 0x30 else { throw garbage(step, head + stream.pending) }
        var length = Int(head[1])
        if head[1] & 0x80 != 0 {
            let octets = Int(head[1] & 0x7F)
            guard (1...3).contains(octets) else { throw garbage(step, head) }
            length = try read(count: octets, step).reduce(0) { $0 << 8 | Int($1) }
        }
        guard length <= Self.lineLimit else { throw garbage(step, head) }
        var reader = BERReader(try read(count: length, step))
        guard reader.next(tag: 0x02) != nil, var response = reader.next(tag: 0x78).map(BERReader.init),
            let result = response.next(tag: 0x0A), result.count == 1 || result.count == 2
        else { throw garbage(step, head + stream.pending) }
        let code = result.reduce(0) { $0 << 8 | Int($1) }
        guard code != 0 else { return }
        _ = response.next(tag: 0x04)
        let diagnostic = response.next(tag: 0x04).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let name = Self.ldapResultNames[code].map { " (\($0))" } ?? ""
        throw refused("StartTLS", answer: "result code \(code)\(name)" + (diagnostic.isEmpty ? "" : ": \(diagnostic)"))
    }

    private static let ldapResultNames: [Int: String] = [
        1: "operationsError", 2: "protocolError", 7: "authMethodNotSupported", 8: "strongerAuthRequired",
        12: "unavailableCriticalExtension", 51: "busy", 52: "unavailable", 53: "unwillingToPerform", 80: "other",
    ]
}

/// Just enough BER to read an LDAP result: definite lengths, one-byte tags, bounds checked at every step.
struct BERReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    /// The contents of the next element if its tag is `tag` (consumed); nil, consuming nothing, otherwise.
    mutating func next(tag: UInt8) -> [UInt8]? {
        var cursor = bytes
        guard cursor.popFirst() == tag, let first = cursor.popFirst() else { return nil }
        var length = Int(first)
        if first & 0x80 != 0 {
            let octets = Int(first & 0x7F)
            guard (1...3).contains(octets), cursor.count >= octets else { return nil }
            length = cursor.prefix(octets).reduce(0) { $0 << 8 | Int($1) }
            cursor = cursor.dropFirst(octets)
        }
        guard cursor.count >= length else { return nil }
        bytes = cursor.dropFirst(length)
        return Array(cursor.prefix(length))
    }
}
