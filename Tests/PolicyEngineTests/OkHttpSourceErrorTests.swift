import Foundation
import PolicyEngine
import Testing
import TestSupport

/// A file pinctl refuses to read, and where and why, written by hand.
struct OkHttpSourceErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let file: String
    let source: String
    let line: Int
    let column: Int
    let saying: String

    var testDescription: String { name }
}

/// What pinctl refuses in OkHttp sources, each a configuration error (exit 2) at the file, line and column at fault:
/// what OkHttp refuses, what the compiler refuses, and what cannot be known from the file alone (unresolved).
@Suite("OkHttp sources pinctl refuses")
struct OkHttpSourceErrorTests {
    static let unresolved: [OkHttpSourceErrorCase] = [
        .init(name: "a var", file: "P.kt", source: """
            var PIN = "\(okA)"
            val p = CertificatePinner.Builder().add("a.example.com", PIN).build()
            """, line: 2, column: 58,
              saying: "unresolved pin PIN (a name that holds no string constant declared once in this file: a "
                + "BuildConfig field, a variable, a parameter, or another file's constant)"),
        .init(name: "a BuildConfig field", file: "P.java", source: """
            CertificatePinner p = new CertificatePinner.Builder()
                .add("a.example.com", "\(okA)",
                     BuildConfig.BACKUP_PIN)
                .build();
            """, line: 3, column: 10, saying: "unresolved pin BuildConfig.BACKUP_PIN (a BuildConfig field: no build.gradle or "
                + "build.gradle.kts in the directories above this file declares it)"),
        .init(name: "a template", file: "P.kt", source: """
            val p = CertificatePinner.Builder().add("a.example.com", "sha256/$HASH").build()
            """, line: 1, column: 58, saying: "unresolved pin \"sha256/$HASH\" (a string with the template $HASH)"),
        .init(name: "a template expression in a raw string", file: "P.kt", source: #"""
            val p = CertificatePinner.Builder().add("a.example.com", """sha256/${pins["a"]}""").build()
            """#, line: 1, column: 58, saying: "(a string with the template ${pins[\"a\"]})"),
        .init(name: "a concatenation", file: "P.java", source: """
            CertificatePinner p = new CertificatePinner.Builder().add("a.example.com", "sha1/" + hash).build();
            """, line: 1, column: 76, saying: "unresolved pin \"sha1/\" + hash (a concatenation of something other than literals and this file's constants)"),
        .init(name: "a computed pin", file: "P.kt", source: """
            val p = CertificatePinner.Builder().add("a.example.com", CertificatePinner.pin(cert)).build()
            """, line: 1, column: 58, saying: "unresolved pin CertificatePinner.pin(cert) (an expression)"),
        .init(name: "a loop's variables", file: "P.kt", source: """
            val b = CertificatePinner.Builder()
            for (pin in PINS) {
                b.add(HOST, pin)
            }
            """, line: 3, column: 11, saying: "unresolved pattern HOST (a name that holds"),
        .init(name: "a spread variable", file: "P.kt", source: """
            val p = CertificatePinner.Builder().add("a.example.com", *pins).build()
            """, line: 1, column: 58, saying: "unresolved pin *pins (a name that holds"),
        .init(name: "a name inside arrayOf", file: "P.kt", source: """
            val p = CertificatePinner.Builder().add("a.example.com", *arrayOf("\(okA)", BACKUP)).build()
            """, line: 1, column: 122, saying: "unresolved pin BACKUP"),
        .init(name: "a Java text block", file: "P.java", source: #"""
            CertificatePinner p = new CertificatePinner.Builder().add("a.example.com", """
                sha256/AAAA""").build();
            """#, line: 1, column: 76, saying: "(a text block, whose indentation Java strips)"),
        .init(name: "a host from elsewhere", file: "P.kt", source: """
            val p = CertificatePinner.Builder().add(server.hostName, "\(okA)").build()
            """, line: 1, column: 41, saying: "unresolved pattern server.hostName"),
    ]

    static let malformed: [OkHttpSourceErrorCase] = [
        .init(name: "an unterminated string", file: "P.kt", source: "val p = CertificatePinner.Builder()\n"
                + "    .add(\"a.example.com\", \"sha256/AAAA)\n    .build()\n",
              line: 2, column: 27, saying: "unterminated string literal"),
        .init(name: "an unterminated raw string", file: "P.kt", source: "val a = 1\nval s = \"\"\" text \"\"\n",
              line: 2, column: 9, saying: "unterminated raw string"),
        .init(name: "a Kotlin comment left open by a nested one", file: "P.kt",
              source: "val a = 1\n  /* a /* b */\nval p = CertificatePinner.Builder().build()\n",
              line: 2, column: 3, saying: "unterminated comment: the /* opened here is never closed"),
        .init(name: "an unterminated Java comment", file: "P.java", source: "class P {\n/** doc\n}\n",
              line: 2, column: 1, saying: "unterminated comment"),
        .init(name: "an escape Kotlin does not know", file: "P.kt", source: "val s = \"a\\qb\"\n",
              line: 1, column: 11, saying: "illegal escape \\q: the Kotlin compiler refuses it"),
        .init(name: "an octal escape in Kotlin", file: "P.kt", source: "val s = \"\\141\"\n",
              line: 1, column: 10, saying: "illegal escape \\1"),
        .init(name: "a short unicode escape", file: "P.java", source: "String s = \"\\u12\";\n",
              line: 1, column: 13, saying: "a \\u escape needs four hexadecimal digits"),
        .init(name: "an unterminated character literal", file: "P.kt", source: "val c = 'a\nval d = 1\n",
              line: 1, column: 9, saying: "unterminated character literal"),
        .init(name: "an unterminated template", file: "P.kt", source: "val s = \"${a\n",
              line: 1, column: 9, saying: "unterminated"),
        .init(name: "an add that is never closed", file: "P.kt",
              source: "val p = CertificatePinner.Builder()\n    .add(\"a.example.com\", \"\(okA)\"\n",
              line: 2, column: 9, saying: "never closed"),
        .init(name: "an empty argument", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(\"a.example.com\", , \"\(okA)\").build()\n",
              line: 1, column: 58, saying: "an empty argument before this comma"),
        .init(name: "an argument add does not have", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(host = \"a.example.com\", pins = \"\(okA)\").build()\n",
              line: 1, column: 41, saying: "add(…) has no argument named host"),
        .init(name: "a line number after CR LF line ends and a byte order mark", file: "P.java",
              source: "\u{FEFF}class P {\r\n  CertificatePinner p = new CertificatePinner.Builder()\r\n"
                + "    .add(\"a.example.com\", X).build();\r\n}\r\n",
              line: 3, column: 27, saying: "unresolved pin X"),
        .init(name: "a line number after lone CR line ends", file: "P.kt",
              source: "val a = 1\rval p = CertificatePinner.Builder()\r  .add(\"a.example.com\", X).build()\r",
              line: 3, column: 25, saying: "unresolved pin X"),
    ]

    static let refused: [OkHttpSourceErrorCase] = [
        .init(name: "a star OkHttp does not allow", file: "P.kt",
              source: "val p = CertificatePinner.Builder()\n  .add(\"api.*.example.com\", \"\(okA)\")\n",
              line: 2, column: 8,
              saying: "the pattern api.*.example.com: OkHttp refuses it: Unexpected pattern: api.*.example.com"),
        .init(name: "a pattern with a port", file: "P.java",
              source: "Object p = new CertificatePinner.Builder().add(\"example.com:443\", \"\(okA)\");\n",
              line: 1, column: 48,
              // Quoted up to the `:` only (UntrustedText): a text list can be any file.
              saying: "the pattern example.com…: OkHttp refuses it: Invalid pattern: example.com…"),
        .init(name: "a pin with another hash", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(\"a.example.com\",\n    \"\(okA)\",\n"
                + "    \"md5/AAAA\")\n",
              line: 3, column: 5,
              saying: "the pin: OkHttp refuses it: pins must start with 'sha256/' or 'sha1/': md5/AAAA"),
        .init(name: "a pin that is not base64", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(\"a.example.com\", \"sha256/a\")\n",
              line: 1, column: 58, saying: "the pin: OkHttp refuses it: Invalid pin hash: sha256/a"),
        .init(name: "a pattern pinctl cannot canonicalise", file: "P.kt",
              source: "val p = CertificatePinner.Builder().add(\"bücher.example\", \"\(okA)\")\n",
              line: 1, column: 41, saying: "the pattern bücher.example: bücher.example is not ASCII"),
        .init(name: "a text list's pin", file: "pins.txt",
              source: "# pins\napi.example.com \(okA)\n\t*.example.com  \(okB)  SHA256/\(okA.dropFirst(7))\n",
              line: 3, column: 70, saying: "pins must start with 'sha256/' or 'sha1/': SHA256/"),
        .init(name: "a text list's pattern", file: "pins.pins",
              source: "a.example.com#x \(okA)\n", line: 1, column: 1, saying: "Invalid pattern: a.example.com#x"),
        .init(name: "a text list's pattern without pins", file: "list",
              source: "a.example.com \(okA)\nb.example.com   # no pin\n", line: 2, column: 1,
              saying: "b.example.com has no pin"),
        .init(name: "a text list's first bad line, before a later line without pins", file: "list",
              source: "a.example.com \(okA)\nb.example.com sha256/a\nc.example.com\n", line: 2, column: 15,
              saying: "Invalid pin hash: sha256/a"),
    ]

    @Test(arguments: unresolved + malformed + refused)
    func isAConfigurationErrorAtTheFileLineAndColumn(_ testCase: OkHttpSourceErrorCase) throws {
        do {
            let (policy, _, _) = try readOkHttpSource(testCase.file, testCase.source)
            Issue.record("read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.file.hasSuffix("/" + testCase.file))
            #expect(error.line == testCase.line, "\(error)")
            #expect(error.column == testCase.column, "\(error)")
            #expect(error.message.contains(testCase.saying), "\(error)")
        }
    }

    @Test func anUnresolvedArgumentSaysWhyPinctlStopsAndWhatToDo() throws {
        do {
            _ = try readOkHttpSource("P.kt",
                                     "val p = CertificatePinner.Builder().add(\"a.example.com\", PIN).build()\n")
            Issue.record("an unresolved pin was read")
        } catch let error as ConfigurationError {
            #expect(error.message.hasSuffix("pinctl reads the string literals given to add(…) and the string "
                + "constants this file declares, runs no code, and stops rather than guess; write the literal or a "
                + "constant there, give the value with the app's defines: (config import --define PIN=VALUE), or "
                + "give the app's pins inline in pinctl.yaml"))
        }
    }

    /// A NUL is refused in a source as in every text pinctl reads, even inside a comment, where it changes no `add`.
    @Test(arguments: ["P.kt", "P.java"])
    func aSourceHoldingANulByteIsRefusedAtItsLine(_ file: String) throws {
        do {
            let (policy, _, _) = try readOkHttpSource(file, "CertificatePinner p = new CertificatePinner.Builder()\n"
                + "  // a\u{0}b\n  .add(\"a.example.com\", \"\(okA)\");\n")
            Issue.record("read as \(policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.line == 2, "\(error)")
            #expect(error.message == "holds a NUL byte: not a text file", "\(error)")
        }
    }

    @Test func aTextListWithoutPatternsIsRefused() throws {
        do {
            _ = try readOkHttpSource("pins.txt", "# nothing yet\n\n")
            Issue.record("an empty list was read")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("holds no pattern"))
        }
    }

    @Test func aTextListReadsCommentsBlankLinesTabsAndLineEnds() throws {
        let (policy, _, _) = try readOkHttpSource("pins.txt", "\u{FEFF}# pattern pins\r\n\r\n"
            + "a.example.com\t\(okA) \(okB) # two\r**.example.com \(okC)\na.example.com \(okD)\n")
        #expect(policy.entryTexts == [.init("a.example.com", okA), .init("a.example.com", okB),
                                      .init("**.example.com", okC), .init("a.example.com", okD)])
        #expect(policy.entries.map { $0.pin.source.description.split(separator: ":").last } == ["3", "3", "4", "5"])
    }
}
