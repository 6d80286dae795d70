import Foundation
import OpenSSLWrapper
import Testing
import TestSupport

/// `apple-ct-logs.cnf` is read as data, never as OpenSSL configuration: no variable is expanded, no directive
/// followed; every value is checked and every refusal names the file and the line (issue #32).
@Suite struct CTLogListReadingTests {
    /// The keys of certs/ct/ct-logs.cnf's logs A and B (scripts/make-ct-certs.sh).
    static let keyA = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE2Q/1qKhHJgnEZ3REhEKLiarQ9zXWNJYnNvGrj0l/0s9bUbg9JxkF/tByJE9vlxrJ"
        + "PGJQNtw8Srp9FqEq4koMrw=="
    static let keyB = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEinWllMkcghOUqlYJ/DgtgiYxXpD/BbCPh5cz/1Zo4TsmzapyvtqMsSWmvrBV1A6P"
        + "QPfrGvDkpqQcMgWj9PJqQA=="

    /// A list as scripts/build_stores.py writes it, with `sectionA` as log a's lines after its key.
    static func list(description: String = "CT Log A", sectionA: String = "", top: String = "") -> String {
        """
        # pinctl store snapshot: Apple's CT log list (written by scripts/build-stores.sh; docs/platform-stores.md)
        list_date = 2025-09-01
        list_source = security_certificates 0123abcd (security_certificates-55313.0.8)
        enabled_logs = a
        untrusted_logs = b
        \(top)
        [a]
        description = \(description)
        key = \(keyA)
        operator = Operator A
        \(sectionA)
        [b]
        description = CT Log B
        key = \(keyB)
        operator = Operator B
        untrusted = rejected 2025-06-01T00:00:00Z

        """
    }

    /// Reads `text` as `stores/apple-ct-logs.cnf` of a new directory.
    func read(_ text: String) throws -> CTLogList {
        try TemporaryDirectory.with { directory in
            try CTLogList(path: try directory.write("apple-ct-logs.cnf", text: text))
        }
    }

    /// The error reading `text` gives, with the file's name in place of its directory.
    func refusal(_ text: String) throws -> String { try refusal(bytes: Array(text.utf8)) }

    func refusal(bytes: [UInt8]) throws -> String {
        try TemporaryDirectory.with { directory in
            let path = try directory.write("apple-ct-logs.cnf", bytes: bytes)
            do {
                _ = try CTLogList(path: path)
                return "accepted"
            } catch {
                return "\(error)".replacingOccurrences(of: path, with: "LIST")
            }
        }
    }

    @Test func theBuildersListReadsWithItsTrustedAndUntrustedLogs() throws {
        let logs = try read(Self.list())

        #expect(logs.dateText == "2025-09-01")
        #expect(logs.source == "security_certificates 0123abcd (security_certificates-55313.0.8)")
        #expect(logs.trustedCount == 1)
        #expect(logs.untrustedCount == 1)
        #expect(logs.logs.values.map(\.operatorName) == ["Operator A"])
        #expect(logs.untrusted.values.map(\.state) == ["rejected 2025-06-01T00:00:00Z"])
    }

    /// OpenSSL's parser puts `$ENV::HOME`'s value (and `$HOME`'s, `${HOME}`'s) in their place.
    @Test func aDollarIsACharacterAndTheBuildersEscapesAreTheCharactersTheyEscape() throws {
        let logs = try read(Self.list(description: ##"Cloudflare \'Nimbus\' \"x\" $ENV::HOME ${HOME} \$HOME \# \\"##))

        #expect(logs.logs.values.map(\.description) == [##"Cloudflare 'Nimbus' "x" $ENV::HOME ${HOME} $HOME # \"##])
    }

    /// OpenSSL's parser reads the file named (a `.env`, a FIFO it then waits on for ever) as part of the list.
    @Test func anIncludeIsADirectiveTheListNeverHas() throws {
        try TemporaryDirectory.with { directory in
            let other = try directory.write("other.cnf", text: "[extra]\ndescription = from elsewhere\n")
            let path = try directory.write("apple-ct-logs.cnf", text: Self.list(top: ".include \(other)"))

            let error = #expect(throws: CTLogListError.self) { try CTLogList(path: path) }
            #expect(error?.description == "\(path):6: a directive (`.include…`): a CT log list is data and has none")
        }
    }

    static let refusedLines: [(String, String)] = [
        // An unknown key, at its line; the key is quoted, never what follows `=`.
        (list(sectionA: "url = https://ct.example/"),
         "LIST:11: unknown key `url` in section [a] (expected description, key, operator, readonly, retired, "
            + "shard_start, shard_end, untrusted)"),
        (list(top: "GITHUB_TOKEN=ghp_0123456789abcdefSECRET"),
         "LIST:6: unknown key `GITHUB_TOKEN` before the first section (expected list_date, list_source, "
            + "enabled_logs, untrusted_logs)"),
        // A line that is no key, section or comment: nothing of it is quoted.
        (list(top: "ghp_0123456789abcdefSECRET"),
         "LIST:6: expected KEY = VALUE, a section [NAME], a # comment or a blank line"),
        (list(sectionA: "readonly = 2025-02-30T00:00:00Z"),
         "LIST:11: log [a] readonly is not a time YYYY-MM-DDTHH:MM:SSZ"),
        (list(sectionA: "retired = 2025-0601T00:00:00Z-"),
         "LIST:11: log [a] retired is not a time YYYY-MM-DDTHH:MM:SSZ"),
        (list(description: "CT Log A \u{202E}gnp.exe"),
         "LIST:8: a value holding a control, format or separator character, which a log list never has"),
        (list(description: "it's"), "LIST:8: a quote or # that is not escaped (the builder writes \\\" \\' \\#)"),
        (list(description: #"a\nb"#),
         #"LIST:8: a backslash before a character the builder does not escape (it escapes \ " ' $ #)"#),
        (list(sectionA: "untrusted = rejected 2025-06-01T00:00:00Z"),
         "LIST:11: log [a] is in enabled_logs and cannot have untrusted"),
        (list(top: "enabled_logs = c"), "LIST:6: enabled_logs again before the first section (first on line 4)"),
        (list().replacingOccurrences(of: "enabled_logs = a", with: "enabled_logs = a,b"),
         "LIST:5: log b is listed twice"),
        (list().replacingOccurrences(of: "enabled_logs = a", with: "enabled_logs = a,c"),
         "LIST:4: log c has no section [c]"),
        (list(sectionA: "[a]"), "LIST:11: section [a] again (first on line 7)"),
    ]

    @Test(arguments: refusedLines)
    func aLineOrValueTheBuilderDoesNotWriteIsRefusedAtItsLine(_ text: String, _ reason: String) throws {
        let message = try refusal(text)

        #expect(message == reason)
    }

    /// OpenSSL reads a key with bytes after its DER and takes the SHA-256 of the key written again as the log id;
    /// pinctl would take another id for the same log.
    @Test func aKeyWithBytesAfterItsDERIsRefused() throws {
        let padded = Data(base64Encoded: Self.keyA)! + Data([0])
        let text = Self.list().replacingOccurrences(of: Self.keyA, with: padded.base64EncodedString())

        let message = try refusal(text)

        #expect(message == "LIST:9: log [a] key is not base64 of a DER SubjectPublicKeyInfo OpenSSL reads")
    }

    /// A byte that is not UTF-8 is refused at its line, the lines before it read.
    @Test func aLineThatIsNotUTF8IsRefusedAtItsLine() throws {
        var bytes = Array(Self.list().utf8)
        let description = Array("CT Log A".utf8)
        let at = try #require(bytes.firstRange(of: description))
        bytes.replaceSubrange(at, with: Array("CT Log ".utf8) + [0xFF])

        #expect(try refusal(bytes: bytes) == "LIST:8: not UTF-8 text")
    }

    /// The keys of a long list are read by OpenSSL on two threads: the refusal still names the first key OpenSSL
    /// does not read, in the list's order, whichever half it is in.
    @Test func theFirstKeyRefusedIsNamedInALongList() throws {
        let script = "for i in 1 2 3 4 5 6 7 8 9 10; do openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 "
            + "2>/dev/null | openssl pkey -pubout -outform DER | base64 -w0; echo; done"
        let keys = try TemporaryDirectory.with { directory in
            try ShellPipeline.output(script, in: directory.path).split(separator: "\n").map(String.init)
        }
        #expect(keys.count == 10)
        // Line 3 lists the logs; log N's section starts on line 4 + 4 (N - 1), its key two lines below.
        func list(padding padded: Set<Int>) -> String {
            "list_date = 2025-09-01\nlist_source = test\nenabled_logs = "
                + (1...10).map { "l\($0)" }.joined(separator: ",") + "\n"
                + keys.enumerated().map { index, key in
                    let written = padded.contains(index + 1)
                        ? (Data(base64Encoded: key)! + Data([0])).base64EncodedString() : key
                    return "[l\(index + 1)]\ndescription = Log \(index + 1)\nkey = \(written)\n\n"
                }.joined()
        }

        #expect(try read(list(padding: [])).trustedCount == 10)
        #expect(try refusal(list(padding: [9])) == "LIST:38: log [l9] key is not base64 of a DER SubjectPublicKeyInfo "
            + "OpenSSL reads")
        #expect(try refusal(list(padding: [3, 9])) == "LIST:14: log [l3] key is not base64 of a DER "
            + "SubjectPublicKeyInfo OpenSSL reads")
        #expect(try refusal(list(padding: [10])) == "LIST:42: log [l10] key is not base64 of a DER "
            + "SubjectPublicKeyInfo OpenSSL reads")
    }

    /// A trusted key is taken exactly when the openssl CLI reads it and writes it back the same: a P-256 key is
    /// answered by its point alone (P256Curve), any other form by OpenSSL reading the key whole.
    @Test func aKeyIsTakenExactlyWhenOpenSSLReadsItBackTheSame() throws {
        try TemporaryDirectory.with { directory in
            let made = try ShellPipeline.output("""
                openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pem 2>/dev/null
                openssl pkey -in p256.pem -pubout -outform DER | base64 -w0; echo
                openssl pkey -in p256.pem -pubout -outform DER -ec_conv_form compressed | base64 -w0; echo
                openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 2>/dev/null \
                    | openssl pkey -pubout -outform DER | base64 -w0; echo
                """, in: directory.path).split(separator: "\n").map { [UInt8](Data(base64Encoded: String($0))!) }
            let p256 = made[0]
            func changed(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
                var key = p256
                key.replaceSubrange(offset..<offset + bytes.count, with: bytes)
                return key
            }
            // X's 32 bytes start at 27, Y's at 59; the field's prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
            let prime: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 12)
                + [UInt8](repeating: 0xFF, count: 12)
            let keys = [
                p256, made[1], made[2],
                changed(90, [p256[90] ^ 1]), changed(27, [p256[27] ^ 0x80]), changed(27, prime),
                changed(26, [0x06]), changed(26, [0x07]), changed(26, [0x00]), changed(25, [0x01]),
                changed(24, [0x41]), changed(22, [0x08]),
            ]
            for (index, key) in keys.enumerated() { _ = try directory.write("k\(index).der", bytes: key) }
            let verdicts = try ShellPipeline.output((0..<keys.count).map { index in
                "openssl pkey -pubin -inform DER -in k\(index).der -outform DER -out b\(index).der 2>/dev/null "
                    + "&& cmp -s k\(index).der b\(index).der && echo yes || echo no"
            }.joined(separator: "\n"), in: directory.path).split(separator: "\n").map { $0 == "yes" }
            #expect(verdicts.count == keys.count)
            #expect(verdicts.prefix(3) == [true, true, true], "the keys as made")
            #expect(verdicts.contains(false), "a changed key OpenSSL refuses")

            for (key, readsBack) in zip(keys, verdicts) {
                let base64 = Data(key).base64EncodedString()
                let message = try refusal(Self.list().replacingOccurrences(of: Self.keyA, with: base64))
                #expect(message == (readsBack ? "accepted" : "LIST:9: log [a] key is not base64 of a DER "
                    + "SubjectPublicKeyInfo OpenSSL reads"), "\(base64)")
            }
        }
    }

    /// An untrusted log's key is never given to OpenSSL, only hashed for its id: it must be canonical base64, and
    /// need not be a key OpenSSL reads (the list names such logs when an SCT is from one).
    @Test func anUntrustedLogsKeyIsCanonicalBase64() throws {
        let notBase64 = Self.list().replacingOccurrences(of: Self.keyB, with: Self.keyB + "!")
        #expect(try refusal(notBase64) == "LIST:14: log [b] key is not canonical base64")
        let notAKey = Self.list().replacingOccurrences(of: Self.keyB, with: Data("not a key".utf8).base64EncodedString())
        #expect(try read(notAKey).untrustedCount == 1)
    }

    @Test func aListBeyondItsBoundsIsRefusedWithoutReadingIt() throws {
        let sections = (1...1001).map { "[l\($0)]\n" }.joined()
        let long = "list_source = " + String(repeating: "x", count: 70_000) + "\n"
        let big = String(repeating: "# padding\n", count: 110_000)

        #expect(try refusal("list_date = 2025-09-01\n" + sections) == "LIST:1002: more than 1000 log sections")
        #expect(try refusal(long) == "LIST:1: a line longer than 65536 bytes")
        #expect(try refusal(big).hasPrefix("LIST: larger than 1024 KiB"))
    }

    /// scripts/build-stores.sh's output from Apple's security_certificates: the team's snapshot beside the
    /// repository (SharedData; built on each machine, never committed).
    @Test func applesListAsTheBuilderWritesItReads() throws {
        let logs = try CTLogList(path: try SharedData.stores() + "/apple-ct-logs.cnf")

        #expect(logs.trustedCount == 49, "\(logs.trustedCount)")
        #expect(logs.untrustedCount == 83, "\(logs.untrustedCount)")
        #expect(logs.untrusted.values.contains { $0.name == "Cloudflare 'Nimbus 2017' log" })
    }
}
