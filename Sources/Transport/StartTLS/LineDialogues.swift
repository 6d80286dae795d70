/// The line-based upgrades: SMTP, IMAP, POP3 and FTP, each checking every answer before the next step.
extension StartTLSDialogue {
    /// RFC 3207: a 220 greeting, EHLO answered by 250 with a STARTTLS line, then STARTTLS answered by 220.
    func smtp(clientName: String) throws(TLSConnectionError) {
        let greeting = try codedReply("greeting")
        guard greeting.code == 220 else { throw refused("the session", answer: greeting.lines[0]) }
        try send("EHLO \(clientName)\r\n")
        let hello = try codedReply("answer to EHLO")
        guard hello.code == 250 else { throw refused("EHLO", answer: hello.lines[0]) }
        // Every line after the first names one extension: "250-STARTTLS", "250 SIZE 10240000".
        let extensions = hello.lines.dropFirst().map { String($0.dropFirst(4)) }
        guard extensions.contains(where: { Self.firstWord($0) == "STARTTLS" }) else {
            throw notOffered("its answer to EHLO lists " + Self.listed(extensions.map(Self.firstWord)))
        }
        try send("STARTTLS\r\n")
        let answer = try codedReply("answer to STARTTLS")
        guard answer.code == 220 else { throw refused("STARTTLS", answer: answer.lines[0]) }
    }

    /// RFC 4217: a 220 greeting, then AUTH TLS answered by 234.
    func ftp() throws(TLSConnectionError) {
        let greeting = try codedReply("greeting")
        guard greeting.code == 220 else { throw refused("the session", answer: greeting.lines[0]) }
        try send("AUTH TLS\r\n")
        let answer = try codedReply("answer to AUTH TLS")
        guard answer.code == 234 else { throw refused("AUTH TLS", answer: answer.lines[0]) }
    }

    /// RFC 2595: a +OK greeting, CAPA listing STLS (a server without CAPA is asked anyway), then STLS answered +OK.
    func pop3() throws(TLSConnectionError) {
        let greeting = try readLine("greeting")
        guard greeting.hasPrefix("+OK") else {
            if greeting.hasPrefix("-ERR") { throw refused("the session", answer: greeting) }
            throw garbage("greeting", Array(greeting.utf8))
        }
        try send("CAPA\r\n")
        let capa = try readLine("answer to CAPA")
        if capa.hasPrefix("+OK") {
            var capabilities: [String] = []
            while true {
                let line = try readLine("answer to CAPA")
                if line == "." { break }
                capabilities.append(Self.firstWord(line))
                guard capabilities.count <= Self.replyLines else {
                    throw garbage("answer to CAPA", Array("more than \(Self.replyLines) lines".utf8))
                }
            }
            guard capabilities.contains("STLS") else { throw notOffered("CAPA lists " + Self.listed(capabilities)) }
        } else if !capa.hasPrefix("-ERR") {
            throw garbage("answer to CAPA", Array(capa.utf8))
        }
        try send("STLS\r\n")
        let answer = try readLine("answer to STLS")
        guard answer.hasPrefix("+OK") else { throw refused("STLS", answer: answer) }
    }

    /// RFC 3501: an OK (or PREAUTH) greeting, CAPABILITY listing STARTTLS, then STARTTLS answered OK.
    func imap() throws(TLSConnectionError) {
        let greeting = try readLine("greeting")
        let status = greeting.split(separator: " ", maxSplits: 2).dropFirst().first.map { $0.uppercased() }
        guard greeting.hasPrefix("* "), status == "OK" || status == "PREAUTH" else {
            if greeting.hasPrefix("* "), status == "BYE" { throw refused("the session", answer: greeting) }
            throw garbage("greeting", Array(greeting.utf8))
        }
        try send("p1 CAPABILITY\r\n")
        var capabilities: [String] = []
        let done = try taggedAnswer("p1", "answer to CAPABILITY") { line in
            let words = line.split(separator: " ").map { $0.uppercased() }
            if words.count > 1, words[0] == "*", words[1] == "CAPABILITY" { capabilities += words.dropFirst(2) }
        }
        guard Self.taggedStatus(done) == "OK" else { throw refused("CAPABILITY", answer: done) }
        guard capabilities.contains("STARTTLS") else { throw notOffered("CAPABILITY lists " + Self.listed(capabilities)) }
        try send("p2 STARTTLS\r\n")
        let answer = try taggedAnswer("p2", "answer to STARTTLS") { _ in }
        guard Self.taggedStatus(answer) == "OK" else { throw refused("STARTTLS", answer: answer) }
    }

    /// Lines until the one tagged `tag`, which is returned; each untagged line goes to `untagged`.
    private func taggedAnswer(_ tag: String, _ step: String, untagged: (String) -> Void) throws(TLSConnectionError)
        -> String
    {
        for _ in 0..<Self.replyLines {
            let line = try readLine(step)
            if line.hasPrefix(tag + " ") { return line }
            guard line.hasPrefix("* ") else { throw garbage(step, Array(line.utf8)) }
            untagged(line)
        }
        throw garbage(step, Array("more than \(Self.replyLines) lines".utf8))
    }

    private static func taggedStatus(_ line: String) -> String? {
        line.split(separator: " ").dropFirst().first.map { $0.uppercased() }
    }

    /// An SMTP or FTP reply: three digits, then '-' on every line but the last, which has a space (or nothing)
    /// after the same code. FTP lets the lines in between start with anything.
    private func codedReply(_ step: String) throws(TLSConnectionError) -> (code: Int, lines: [String]) {
        let first = try readLine(step)
        guard let code = Self.code(first) else { throw garbage(step, Array(first.utf8)) }
        var lines = [first]
        guard first.dropFirst(3).first == "-" else { return (code, lines) }
        while lines.count < Self.replyLines {
            let line = try readLine(step)
            lines.append(line)
            if Self.code(line) == code, line.dropFirst(3).first != "-" { return (code, lines) }
        }
        throw garbage(step, Array("more than \(Self.replyLines) lines".utf8))
    }

    /// The reply code of "250-…", "250 …" or "250"; nil for anything else.
    private static func code(_ line: String) -> Int? {
        let digits = line.prefix(3)
        guard digits.count == 3, digits.allSatisfy(\.isASCII), let code = Int(digits), (100...599).contains(code)
        else { return nil }
        let next = line.dropFirst(3).first
        return next == nil || next == " " || next == "-" ? code : nil
    }

    static func firstWord(_ line: String) -> String {
        String(line.split(separator: " ").first ?? "").uppercased()
    }

    /// "PIPELINING, SIZE and 8BITMIME", or "nothing".
    static func listed(_ words: [String]) -> String {
        let shown = words.filter { !$0.isEmpty }.prefix(12)
        guard !shown.isEmpty else { return "nothing" }
        return shown.joined(separator: ", ") + (words.count > shown.count ? ", …" : "")
    }
}
