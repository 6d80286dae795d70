import FileAccess
import Foundation
import Testing

/// `FileInput.read` gives a file's bytes whole whatever its size says: around the sizes its buffers take, at its
/// limit and one byte past it, and for a file whose size says nothing (/proc). The expected bytes are the ones written
/// here, and for /proc the process's own arguments. (Not Foundation's `Data(contentsOf:)`: it leaks a buffer reading
/// an empty file, which LeakSanitizer reports in CI.)
@Suite struct FileInputReadTests {
    /// Runs `body` in a new directory, removed after.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("FileInputReadTests-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// Bytes that differ from place to place, so a part read twice or skipped shows.
    private func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    @Test("a file is read whole", arguments: [0, 1, 2047, 4096, 65_535, 65_536, 65_537, 300_001])
    func aFileIsReadWhole(_ count: Int) throws {
        try withDirectory { directory in
            let path = directory + "/file"
            try Data(bytes(count)).write(to: URL(fileURLWithPath: path))

            let read = try FileInput.read(path)

            #expect(read == bytes(count))
        }
    }

    @Test func aFileOfExactlyTheLimitIsReadAndOneByteMoreIsRefused() throws {
        try withDirectory { directory in
            try Data(bytes(1000)).write(to: URL(fileURLWithPath: directory + "/at"))
            try Data(bytes(1001)).write(to: URL(fileURLWithPath: directory + "/over"))

            #expect(try FileInput.read(directory + "/at", limit: 1000) == bytes(1000))
            #expect(throws: FileInput.Failure.self) { try FileInput.read(directory + "/over", limit: 1000) }
        }
    }

    /// /proc's files say they are empty and are not: read until they end, past what fstat said, as any other file.
    @Test func aFileLargerThanItsSizeSaysIsReadToItsEnd() throws {
        var info = stat()
        #expect(stat("/proc/self/cmdline", &info) == 0 && info.st_size == 0)

        let read = try FileInput.read("/proc/self/cmdline")

        // Each argument and a NUL after it (proc(5)).
        #expect(!read.isEmpty)
        #expect(read == Array(CommandLine.arguments.map { $0 + "\u{0}" }.joined().utf8))
    }

    /// A /proc file larger than the limit, whose size says 0, is refused as a file whose size says so is.
    @Test func aFileLargerThanTheLimitIsRefusedWhenItsSizeSaysNothing() throws {
        #expect(throws: FileInput.Failure.self) { try FileInput.read("/proc/self/maps", limit: 64) }
    }
}
