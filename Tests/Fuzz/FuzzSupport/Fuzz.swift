import Foundation
import FuzzDriver

/// What every fuzz target shares: reading libFuzzer's input, checking invariants, and replaying saved inputs.
///
/// A target is one function from bytes to nothing that returns when the parser rejects the input and calls
/// `require` for every property a parsed value must have. Its `main` hands it to `Fuzz.main`: built with
/// `-DFUZZING` (Package.swift, when PINCTL_FUZZ_RUNTIME is set), libFuzzer runs it; otherwise it replays saved
/// inputs through the same code.
public enum Fuzz {
    /// The input being replayed, named when an invariant fails (libFuzzer names its own).
    nonisolated(unsafe) private static var currentInput: String?
    /// The target libFuzzer calls: a C callback cannot capture it, so it waits here.
    nonisolated(unsafe) private static var target: (([UInt8]) -> Void)?

    /// The whole program of a fuzz target: libFuzzer's driver on `check` when built with `-DFUZZING`, else `replay`
    /// of the files and directories the command line names.
    public static func main(_ check: @escaping ([UInt8]) -> Void) -> Never {
        #if FUZZING
        target = check
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                Fuzz.target?(Fuzz.bytes(data, size))
                return 0
            })
        #else
        exit(replay(Array(CommandLine.arguments.dropFirst()), check))
        #endif
    }

    /// libFuzzer's input as bytes (`data` is nil when `size` is 0).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Stops the run when a parsed value breaks an invariant, so libFuzzer saves the input as a crash.
    public static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        guard !condition() else { return }
        var report = "invariant failed at \(file):\(line): \(message())\n"
        if let currentInput { report += "input: \(currentInput)\n" }
        FileHandle.standardError.write(Data(report.utf8))
        abort()
    }

    /// The last line a text can have, however its reader counts: one more than its line breaks, each of LF, CR,
    /// NEL, LS and PS counted (YAML and XML end a line at a lone CR; YAML also at the Unicode breaks), so CR LF counts
    /// twice and the bound is loose but never too low.
    public static func maximumLine(of bytes: [UInt8]) -> Int {
        var breaks = 0
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A || byte == 0x0D {
                breaks += 1
            } else if byte == 0x85, index > 0, bytes[index - 1] == 0xC2 {  // U+0085 is C2 85
                breaks += 1
            } else if byte == 0xA8 || byte == 0xA9, index > 1, bytes[index - 2] == 0xE2, bytes[index - 1] == 0x80 {
                breaks += 1  // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
            }
        }
        return 1 + breaks
    }

    /// A path inside the repository, fixed at build time, so a target that reads files beside its input (a policy
    /// file's certificates, an Android config's `@raw/` resources) behaves the same from any working directory.
    public static func repositoryPath(_ relative: String) -> String {
        // This file is Tests/Fuzz/FuzzSupport/Fuzz.swift.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(relative).path
    }

    /// Runs `check` on every file named in `arguments` and every file directly inside a directory named there;
    /// returns the exit status: 0 when all ran, 2 when an argument cannot be read.
    public static func replay(_ arguments: [String], _ check: ([UInt8]) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(CommandLine.arguments[0]) FILE-OR-DIRECTORY...\n".utf8))
            return 2
        }
        var count = 0
        for argument in arguments {
            for file in files(at: argument) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(file): cannot be read\n".utf8))
                    return 2
                }
                currentInput = file
                check([UInt8](data))
                count += 1
            }
        }
        print("replayed \(count) input\(count == 1 ? "" : "s"): every invariant holds")
        return 0
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { (path as NSString).appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }
}
