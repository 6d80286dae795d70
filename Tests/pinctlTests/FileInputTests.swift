import Foundation
import Testing
import TestSupport

/// Files that are not what they seem: named pipes, names that are not UTF-8, symbolic-link loops, standard input,
/// byte order marks. None may hang, crash or be mistaken for another file.
@Suite struct FileInputTests {
    /// A named pipe nobody writes to: reading it would block forever.
    private func fifo(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func namedPipeAsChainIsRefusedAtOnce() throws {
        try TemporaryDirectory.with { directory in
            let pipe = try fifo("chain.pem", in: directory)
            let result = try PinctlProcess.run(["verify", "--chain", pipe], timeout: 10)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(pipe): is a named pipe (FIFO), not a regular file"), "\(result)")
        }
    }

    @Test func namedPipeAsCAFileIsRefusedAtOnce() throws {
        try TemporaryDirectory.with { directory in
            let pipe = try fifo("roots.pem", in: directory)
            let result = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--ca-file", pipe], timeout: 10)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(pipe): is a named pipe (FIFO)"), "\(result)")
        }
    }

    @Test func namedPipeInAPinsDirectoryIsAnErrorNamingIt() throws {
        try TemporaryDirectory.with { directory in
            let pins = try directory.makeDirectory("pins")
            try Data(Certs.bytes("pins/leaf.pin")).write(to: URL(fileURLWithPath: pins + "/leaf.pin"))
            let pipe = try fifo("pins/backup.pin", in: directory)
            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf-chain.pem", "--mode", "publickey", "--pins", pins] + LiveRun.anchors,
                timeout: 10)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(pipe): is a named pipe (FIFO)"), "\(result)")
        }
    }

    @Test func namedPipeInACAPathDirectoryIsRefusedBeforeOpenSSLBlocksOnIt() throws {
        try TemporaryDirectory.with { directory in
            let hashed = try directory.makeDirectory("hashed")
            let hash = Certs.opensslHash("intermediate-ca.pem")
            let pipe = try fifo("hashed/\(hash).0", in: directory)
            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf.pem", "--ca-path", hashed, "--at", TestTime.nowText], timeout: 10)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(pipe): is a named pipe (FIFO)"), "\(result)")
        }
    }

    @Test func aFileNameThatIsNotUTF8NamesThatFile() throws {
        try TemporaryDirectory.with { directory in
            let result = try PinctlProcess.runShell("""
                cp leaf-chain.pem "$(printf '\(directory.path)/bad\\377.pem')" &&
                "$PINCTL" verify --chain "$(printf '\(directory.path)/bad\\377.pem')" --ca-file root-ca.pem \
                    --host pinning.test --at \(TestTime.nowText)
                """)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("bad\\xFF.pem"), "\(result)")
        }
    }

    @Test func extractIntoADirectoryNamedInBytesThatAreNotUTF8WritesThere() throws {
        try TemporaryDirectory.with { directory in
            let result = try PinctlProcess.runShell("""
                out="$(printf '\(directory.path)/out\\377')"
                "$PINCTL" extract --chain leaf-chain.pem --out "$out" --ca-file root-ca.pem --at \(TestTime.nowText) &&
                test -f "$out/pins.pin" && test -f "$out/00-pinning.test.cer" && ls "\(directory.path)" | wc -l
                """)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("out\\xFF/pins.pin"), "\(result)")
            #expect(result.stdout.hasSuffix("1\n"), "one directory, the right one: \(result)")
        }
    }

    @Test func aSymbolicLinkLoopIsNamedAsSuch() throws {
        try TemporaryDirectory.with { directory in
            let loop = directory.path("loop.pem")
            try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
            let result = try PinctlProcess.run(["verify", "--chain", loop])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(loop): cannot be read: too many levels of symbolic links"), "\(result)")
            #expect(!result.stderr.contains("The file"), "\(result)")
        }
    }

    @Test func extractIntoAPlaceThatCannotBeCreatedSaysWhyInWords() throws {
        let result = try PinctlProcess.run(
            ["extract", "--chain", "leaf-chain.pem", "--out", "/proc/pinctl-cannot-be-here/pins"] + LiveRun.anchors)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--out /proc/pinctl-cannot-be-here/pins: no such file or directory"), "\(result)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result)")
    }

    @Test func chainDashReadsStandardInput() throws {
        let result = try PinctlProcess.run(
            ["verify", "--chain", "-", "--host", "pinning.test", "--format", "json"] + LiveRun.anchors,
            input: Certs.bytes("leaf-chain.pem"))
        #expect(result.status == 0, "\(result)")
        let object = try LiveRun.object(result.stdout)
        #expect(object["verdict"] as? String == "trusted")
        #expect((object["chain"] as? [Any])?.count == 3)
    }

    @Test func chainDashWithGarbageOnStandardInputNamesStandardInput() throws {
        let result = try PinctlProcess.run(["verify", "--chain", "-"], input: Array("hello\n".utf8))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--chain standard input: neither a PEM nor a DER certificate"), "\(result)")
    }

    @Test func aPinFileStartingWithAUTF8ByteOrderMarkIsRead() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("bom.pin", bytes: [0xEF, 0xBB, 0xBF] + Certs.bytes("pins/leaf.pin"))
            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--mode", "publickey", "--pins", file]
                    + LiveRun.anchors)
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func aUTF16PinFileIsNamedAsSuch() throws {
        try TemporaryDirectory.with { directory in
            let text = String(decoding: Certs.bytes("pins/leaf.pin"), as: UTF8.self)
            let file = try directory.write("utf16.pin", bytes: [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            let result = try PinctlProcess.run(
                ["verify", "--chain", "leaf-chain.pem", "--mode", "publickey", "--pins", file] + LiveRun.anchors)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(file): is UTF-16 text"), "\(result)")
        }
    }
}
