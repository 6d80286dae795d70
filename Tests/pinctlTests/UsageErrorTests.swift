import Foundation
import Testing
import TestSupport

/// Every bad flag or bad input exits 2 with a message naming the flag, file or line at fault.
@Suite struct UsageErrorTests {
    static let scratch: String = {
        let directory = NSTemporaryDirectory() + "pinctl-usage-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory + "/empty-dir", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: directory + "/hashed", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/gibberish.pem", contents: Data("hello, world\n".utf8))
        _ = FileManager.default.createFile(atPath: directory + "/empty.der", contents: Data())
        _ = FileManager.default.createFile(atPath: directory + "/bad.pin", contents: Data("# comment\nsha256/AAAA\n".utf8))
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("x".utf8))
        return directory
    }()

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
        Case(arguments: ["verify", "--chain", "\(scratch)/gibberish.pem"], mentions: "gibberish.pem"),
        Case(arguments: ["verify", "--chain", "\(scratch)/empty.der"], mentions: "empty.der: empty file"),
        Case(arguments: ["verify", "--chain", "leaf.key"], mentions: "leaf.key: no certificate"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "\(scratch)/bad.pin"],
             mentions: "bad.pin:2"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "\(scratch)/empty-dir"],
             mentions: "yields no pins"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pins", "\(scratch)/notes.txt"],
             mentions: "notes.txt: unknown pin file type"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "publickey", "--pin", "sha256/short"],
             mentions: "--pin sha256/short"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--mode", "certificate", "--pins", "pins/leaf.pin"],
             mentions: "hash pins"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--ca-file", "missing-root.pem"], mentions: "missing-root.pem"),
        Case(arguments: ["verify", "--chain", "leaf.pem", "--ca-path", "leaf.pem"], mentions: "--ca-path"),
    ]

    @Test("bad input exits 2 and names what is at fault", arguments: cases)
    func badInputExitsTwo(_ testCase: Case) throws {
        let result = try PinctlProcess.run(testCase.arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(testCase.mentions), "\(result)")
        #expect(result.stdout.isEmpty || result.stdout.contains("\"verdict\":\"error\""))
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
