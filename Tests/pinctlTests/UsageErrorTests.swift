import Foundation
import Testing
import TestSupport

/// Every bad flag or bad input exits 2 with a message naming the flag, file or line at fault.
@Suite struct UsageErrorTests {
    /// The scratch files the cases name as `{scratch}/…`, made afresh for each case and removed after it.
    private static func makeScratch(_ directory: TemporaryDirectory) throws {
        try directory.makeDirectory("empty-dir")
        try directory.makeDirectory("hashed")
        try directory.write("gibberish.pem", text: "hello, world\n")
        try directory.write("empty.der", bytes: [])
        try directory.write("bad.pin", text: "# comment\nsha256/AAAA\n")
        try directory.write("notes.txt", text: "x")
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let mentions: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["verify", "--chain", "leaf.pem", "--bogus"], mentions: "--bogus"),
        Case(arguments: ["verify"], mentions: "--chain"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "pinned"], mentions: "--mode"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--at", "yesterday"], mentions: "--at yesterday"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--warn-days", "-3"], mentions: "--warn-days"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--host", ""], mentions: "--host"),
        Case(arguments: ["frobnicate"], mentions: "frobnicate"),
        Case(arguments: ["verify", "--chain", "no-such.pem"], mentions: "no-such.pem: no such file"),
        Case(arguments: ["verify", "--chain", "{scratch}/gibberish.pem"], mentions: "gibberish.pem"),
        Case(arguments: ["verify", "--chain", "{scratch}/empty.der"], mentions: "empty.der: empty file"),
        Case(arguments: ["verify", "--chain", "leaf.key"], mentions: "leaf.key: no certificate"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "{scratch}/bad.pin"],
             mentions: "bad.pin:2"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "{scratch}/empty-dir"],
             mentions: "yields no pins"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "{scratch}/notes.txt"],
             mentions: "notes.txt: unknown pin file type"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pin", "sha256/short"],
             mentions: "--pin sha256/short"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "certificate", "--pins", "pins/leaf.pin"],
             mentions: "hash pins"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--ca-file", "missing-root.pem"], mentions: "missing-root.pem"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--ca-path", "leaf.pem"], mentions: "--ca-path"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--warn-days", "-1"], mentions: "--warn-days -1: must be 0 or more"),
        Case(arguments: ["check", "127.0.0.1:9", "--timeout", "-1"], mentions: "--timeout -1.0: must be more than 0"),
        Case(arguments: ["check", "127.0.0.1:9", "--jobs", "-4"], mentions: "--jobs -4: must be from 1 to 256"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--at", "@9223372036854775807"],
             mentions: "--at @9223372036854775807: outside the years 0001 to 9999"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--at", "10000-01-01T00:00:00Z"],
             mentions: "outside the years 0001 to 9999"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--at", "2026-02-30T00:00:00Z"],
             mentions: "day 30 does not exist: 2026-02 has 28 days"),
        Case(arguments: ["check", String(repeating: "a", count: 64) + ".test"], mentions: "a label has at most 63"),
        Case(arguments: ["check", String(repeating: "a", count: 300) + ".test"], mentions: "a host name has at most 253"),
        Case(arguments: ["check", "127.0.0.1:9", "--servername", "a b"], mentions: "--servername a b: 'a b' contains ' '"),
        Case(arguments: ["check", "127.0.0.1:9", "--servername", "a..b"], mentions: "empty label"),
        Case(arguments: ["check", "bücher.test"], mentions: "xn-- form"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--host", "a b"], mentions: "--host a b: 'a b' contains ' '"),
        // OkHttp takes `$` and `"` in a pattern, TrustKit any string as a domain; pinctl takes host names only (#17).
        Case(arguments: ["verify", "--chain", "leaf.pem", "--library", "okhttp", "--pins", "pins/leaf.pin",
                         "--pattern", "*.a$b.test"], mentions: "--pattern *.a$b.test: "),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--library", "trustkit", "--pins", "pins/leaf.pin",
                         "--trustkit-domain", "x\"y.test"], mentions: "--trustkit-domain x\"y.test: "),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--chain", "-", "--chain", "-"],
             mentions: "standard input can be read only once"),
    ]

    @Test("bad input exits 2 and names what is at fault", arguments: cases)
    func badInputExitsTwo(_ testCase: Case) throws {
        let result = try TemporaryDirectory.with { directory in
            try Self.makeScratch(directory)
            return try PinctlProcess.run(testCase.arguments.map { $0.replacingOccurrences(of: "{scratch}", with: directory.path) })
        }
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(testCase.mentions), "\(result)")
        #expect(result.stdout.isEmpty || result.stdout.contains("\"verdict\":\"error\""))
    }

    /// pinctl parses a line from the command it names, and from `pinctl` again when that does not give one of its
    /// commands: help, errors and completion scripts must still be ArgumentParser's for `pinctl …`, as before.
    @Test("help, errors and completion name pinctl", arguments: [
        (["verify", "--chain", "leaf.pem", "--bogus"], 2,
         "Error: Unknown option '--bogus'\nUsage: pinctl verify <options>\n  See 'pinctl verify --help' for more information."),
        (["verify", "--help"], 0, "USAGE: pinctl verify <options>"),
        (["verify", "-h"], 0, "  --version               Show the version."),
        (["check", "--help"], 0, "USAGE: pinctl check [<options>] [<target> ...]"),
        (["config", "import", "--help"], 0, "USAGE: pinctl config import <file> [--library <library>]"),
        (["config", "bogus"], 2, "Usage: pinctl config <subcommand>"),
        (["verify", "--generate-completion-script", "bash"], 0, "complete -o filenames -F _pinctl pinctl"),
    ])
    func commandLineAnswersNamePinctl(_ arguments: [String], _ status: Int32, _ expected: String) throws {
        let result = try PinctlProcess.run(arguments)
        #expect(result.status == status, "\(result)")
        #expect((result.stdout + result.stderr).contains(expected), "\(result)")
    }

    @Test func inputErrorInJSONModeIsAnErrorVerdictWithCodeInput() throws {
        let result = try PinctlProcess.run(["verify", "--chain", "no-such.pem", "--format", "json"])
        #expect(result.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "error")
        #expect((object["reason"] as? [String: Any])?["code"] as? String == "input")
    }

    @Test func usageErrorInJSONModeIsStillOneErrorObjectOnStdout() throws {
        let result = try PinctlProcess.run(["check", "localhost:99999", "--format", "json"])
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "error")
        let reason = try #require(object["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "input")
        #expect((reason["message"] as? String)?.contains("99999") == true)
    }
}
