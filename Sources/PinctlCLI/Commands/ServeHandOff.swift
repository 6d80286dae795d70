import FileAccess
import FoundationEssentials
import Glibc

/// `pinctl serve` run by pinctl: the same command line is handed to pinctl-serve, the executable beside pinctl that
/// holds the exporter, by exec, so the process (its PID, signals and exit status) stays the one the operator started.
enum ServeHandOff {
    static let executableName = "pinctl-serve"

    /// Replaces this process with pinctl-serve; returns only by throwing when it cannot be started.
    static func execute() throws -> Never {
        guard let path = siblingPath() else {
            Terminal.error("serve: cannot find the directory of the running pinctl (/proc/self/exe)")
            try ExitStatus.inputError.exit()
        }
        exec(path, PathBytes.arguments())
        if errno == ENOENT {
            Terminal.error("serve: \(path) is not there: pinctl serve runs the exporter from \(executableName), "
                + "which is installed beside pinctl (from the same build: .build/release/\(executableName))")
        } else {
            Terminal.error("serve: cannot start \(path): \(String(cString: strerror(errno)))")
        }
        try ExitStatus.inputError.exit()
    }

    /// pinctl-serve in the directory of the running executable (the binary itself, whatever argv[0] or a symbolic
    /// link says).
    private static func siblingPath() -> String? {
        guard let executable = PathBytes.runningExecutable() else { return nil }
        return Path.join(Path.parent(of: executable), executableName)
    }

    /// execv with every argument's bytes as the user gave them; returns only when exec failed (errno says why).
    private static func exec(_ path: String, _ arguments: [String]) {
        let argv = arguments.map { strdup(PathBytes.bytes($0).map { CChar(bitPattern: $0) } + [0]) }
        defer { argv.forEach { free($0) } }
        let pathBytes = PathBytes.bytes(path).map { CChar(bitPattern: $0) } + [0]
        _ = (argv + [nil]).withUnsafeBufferPointer { execv(pathBytes, $0.baseAddress!) }
    }
}
