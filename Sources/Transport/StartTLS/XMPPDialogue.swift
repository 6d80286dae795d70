import FoundationEssentials

/// RFC 6120 §5.4: the client's stream header, the server's features listing <starttls/>, then <starttls/> answered
/// by <proceed/>. Read as text, the way `openssl s_client -starttls xmpp` does: a probe needs no XML parser.
extension StartTLSDialogue {
    static let tlsNamespace = "urn:ietf:params:xml:ns:xmpp-tls"

    func xmpp(domain: String) throws(TLSConnectionError) {
        try send("<?xml version='1.0'?><stream:stream xmlns='jabber:client' "
            + "xmlns:stream='http://etherx.jabber.org/streams' to='\(Self.escaped(domain))' version='1.0'>")
        let features = try readUntil("stream features") { text in
            for end in ["</stream:features>", "<stream:features/>", "</stream:error>", "</stream:stream>"] {
                if let range = text.firstRange(of: end) { return Self.byteCount(text, to: range.upperBound) }
            }
            return nil
        }
        if let error = Self.element("stream:error", in: features) { throw refused("the stream", answer: error) }
        guard features.contains("<stream:features") else { throw garbage("stream features", Array(features.utf8)) }
        guard let starttls = Self.element("starttls", in: features), starttls.contains(Self.tlsNamespace) else {
            throw notOffered("its stream features do not include <starttls xmlns='\(Self.tlsNamespace)'/>")
        }
        try send("<starttls xmlns='\(Self.tlsNamespace)'/>")
        let answer = try readUntil("answer to <starttls/>") { text in
            for name in ["<proceed", "<failure"] {
                guard let start = text.firstRange(of: name), let close = text[start.upperBound...].firstIndex(of: ">")
                else { continue }
                // Only through the element: what follows it is judged as bytes sent before the handshake.
                return Self.byteCount(text, to: text.index(after: close))
            }
            return text.contains("</stream:stream>") ? text.unicodeScalars.count : nil
        }
        guard answer.contains("<proceed") else { throw refused("<starttls/>", answer: answer) }
    }

    /// Reads until `complete` finds the end of the answer in what has arrived (and says how many bytes it spans);
    /// returns those bytes as text, leaving the rest pending.
    private func readUntil(_ step: String, complete: (String) -> Int?) throws(TLSConnectionError) -> String {
        while true {
            // One character per byte, so what `complete` counts is what is read.
            let text = String(String.UnicodeScalarView(stream.pending.map { Unicode.Scalar($0) }))
            if let count = complete(text) {
                return String(decoding: try read(count: min(count, stream.pending.count), step), as: UTF8.self)
            }
            guard stream.pending.count <= Self.lineLimit * 8 else {
                throw failure(.tooLong(limit: Self.lineLimit * 8), waitingFor: step)
            }
            let more: Bool
            do throws(SocketStream.Failure) {
                more = try stream.waitForMore()
            } catch {
                throw failure(error, waitingFor: step)
            }
            guard more else { throw failure(.closed(received: stream.pending.count), waitingFor: step) }
        }
    }

    /// The element `<name …>…</name>` or `<name …/>` as text, from its start; nil when absent.
    private static func element(_ name: String, in text: String) -> String? {
        guard let start = text.firstRange(of: "<" + name + " ") ?? text.firstRange(of: "<" + name + ">")
            ?? text.firstRange(of: "<" + name + "/>")
        else { return nil }
        let rest = text[start.lowerBound...]
        if let end = rest.firstRange(of: "</" + name + ">") { return String(rest[..<end.upperBound]) }
        if let end = rest.firstIndex(of: ">") { return String(rest[...end]) }
        return String(rest)
    }

    /// How many bytes (one character each) `text` holds before `index`.
    private static func byteCount(_ text: String, to index: String.Index) -> Int {
        text.unicodeScalars.distance(from: text.startIndex, to: index)
    }

    /// A domain inside a single-quoted XML attribute.
    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "'": escaped += "&apos;"
            case "<": escaped += "&lt;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
