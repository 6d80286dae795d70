import Foundation
import Testing
import TestSupport

/// `extract` changes all or nothing: a write that fails half-way leaves every file as it was.
@Suite struct ExtractAtomicityTests {
    static let names = ["00-pinning.test.cer", "01-pinctl-test-intermediate-ca.cer", "02-pinctl-test-root-ca.cer",
                        "pins.pin"]

    private func contents(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
            result[name] = isDirectory.boolValue ? Data("<directory>".utf8)
                : try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return result
    }

    @Test func forcedExtractThatCannotReplaceEveryFileChangesNothing() throws {
        try TemporaryDirectory.with { temporary in
            let out = try temporary.makeDirectory("pins")
            for name in Self.names where name != "01-pinctl-test-intermediate-ca.cer" {
                try Data("old \(name)\n".utf8).write(to: URL(fileURLWithPath: out + "/" + name))
            }
            // A target name taken by a directory: it cannot be replaced, and nothing else may be.
            try FileManager.default.createDirectory(atPath: out + "/01-pinctl-test-intermediate-ca.cer",
                                                    withIntermediateDirectories: false)
            let before = try contents(out)

            let result = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", out, "--force"]
                + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("01-pinctl-test-intermediate-ca.cer is a directory"), "\(result)")
            #expect(try contents(out) == before)
        }
    }

    @Test func forcedExtractReplacesEveryFileAndKeepsTheOthers() throws {
        try TemporaryDirectory.with { temporary in
            let out = try temporary.makeDirectory("pins")
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: out + "/pins.pin"))
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))

            let result = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", out, "--force"]
                + LiveRun.anchors)

            #expect(result.status == 0, "\(result)")
            let after = try contents(out)
            #expect(Set(after.keys) == Set(Self.names + ["notes.txt"]), "no staging directory is left behind")
            #expect(after["notes.txt"] == Data("mine\n".utf8))
            #expect(after["00-pinning.test.cer"] == Data(Certs.bytes("leaf.der")))
        }
    }

    @Test func aNewDirectoryAppearsWholeWithTheUsualMode() throws {
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("new/nested/pins")
            let result = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", out] + LiveRun.anchors)
            #expect(result.status == 0, "\(result)")
            #expect(Set(try contents(out).keys) == Set(Self.names))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path("new/nested")) == ["pins"])
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int)
            let mask = umask(0)
            umask(mask)
            #expect(mode == 0o777 & ~Int(mask), "mode \(String(mode, radix: 8))")
        }
    }
}
