import Foundation
import Testing
import TestSupport

/// `extract` changes all or nothing: a write that fails half-way leaves every file as it was, a forced write replaces
/// the whole set it owns (`NN-*.cer`, `pins.pin`), and an interrupt waits until the new set is whole.
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

    /// Issue 17, item 5: `--which leaf --force` over a `--which all` set removes the CA certificates it no longer
    /// writes, so `--pins DIR` trusts the re-keyed leaf alone, not every chain through the old intermediate.
    @Test func forcedLeafExtractOverAFullSetLeavesOnlyTheLeafAndItsPins() throws {
        try TemporaryDirectory.with { temporary in
            let out = temporary.path("pins")
            let all = try PinctlProcess.run(["extract", "--chain", "leaf-chain.pem", "--out", out] + LiveRun.anchors)
            #expect(all.status == 0, "\(all)")
            #expect(Set(try contents(out).keys) == Set(Self.names))
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: out + "/README.txt"))

            let leaf = try PinctlProcess.run(["extract", "--chain", "leaf-rekeyed.pem", "--which", "leaf", "--out", out,
                                              "--force"] + LiveRun.anchors)

            #expect(leaf.status == 0, "\(leaf)")
            let after = try contents(out)
            #expect(Set(after.keys) == ["00-pinning.test.cer", "pins.pin", "README.txt"])
            #expect(after["README.txt"] == Data("mine\n".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["pins"])
            let verify = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--pins", out,
                                                "--mode", "publickey", "--format", "json"] + LiveRun.anchors)
            #expect(verify.status == 1, "\(verify)")
            #expect(try LiveRun.objects(verify.stdout).map(LiveRun.reasonCode) == ["public-key-not-pinned"])
        }
    }

    @Test func anExtractWithoutForceRefusesToLeaveAnEarlierSetBeside() throws {
        try TemporaryDirectory.with { temporary in
            let out = try temporary.makeDirectory("pins")
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: out + "/01-old-intermediate.cer"))
            let before = try contents(out)

            let result = try PinctlProcess.run(["extract", "--chain", "leaf.pem", "--out", out] + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("would replace \(out)/01-old-intermediate.cer; nothing was written"),
                    "\(result)")
            #expect(try contents(out) == before)
        }
    }

    /// SIGINT arriving as the new set goes in: strace injects it into pinctl's first rename(2)-family call (the swap;
    /// on a pinctl that renames file by file, the first file's rename). It waits until the set is whole and the
    /// staging directory is gone, then ends pinctl as it would have.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func anInterruptDuringTheSwapWaitsUntilTheNewSetIsWhole() throws {
        try TemporaryDirectory.with { temporary in
            let out = try temporary.makeDirectory("pins")
            for name in Self.names {
                try Data("old \(name)\n".utf8).write(to: URL(fileURLWithPath: out + "/" + name))
            }
            let calls = "rename,renameat,renameat2"
            let anchors = LiveRun.anchors.map { "'\($0)'" }.joined(separator: " ")
            let script = "strace -f -o /dev/null -e trace=\(calls) -e inject=\(calls):signal=SIGINT:when=1 "
                + "\"$PINCTL\" extract --chain leaf-chain.pem --out '\(out)' --force \(anchors); echo \"status $?\""

            let result = try PinctlProcess.runShell(script)

            #expect(result.stdout.hasSuffix("status 130\n"), "ended by the SIGINT: \(result)")
            let after = try contents(out)
            #expect(Set(after.keys) == Set(Self.names), "\(result)")
            #expect(after["00-pinning.test.cer"] == Data(Certs.bytes("leaf.der")))
            #expect(after["01-pinctl-test-intermediate-ca.cer"] == Data(Certs.bytes("intermediate-ca.der")))
            #expect(after["02-pinctl-test-root-ca.cer"] == Data(Certs.bytes("root-ca.der")))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["pins"])
        }
    }
}
