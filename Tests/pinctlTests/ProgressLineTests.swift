import Foundation
import Testing
import TestSupport

/// With several targets on a terminal, `check` keeps a progress line on stderr; off a terminal it prints none.
@Suite struct ProgressLineTests {
    @Test func severalTargetsOnATerminalShowAProgressLineAndNoneInAPipe() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let targets = Array(repeating: "127.0.0.1:\(server.port)", count: 6)
        let arguments = ["check"] + targets + ["--servername", "pinning.test", "--jobs", "1"] + LiveRun.anchors

        let piped = try PinctlProcess.run(arguments)
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.stderr.contains("checked"))

        // script(1) gives pinctl a pseudo-terminal for stdout and stderr alike.
        let command = ([PinctlProcess.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let terminal = try Subprocess.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: Certs.directory)
        // script(1) copies the terminal to its standard output; its own standard error has only its complaints.
        let screen = terminal.stdout + terminal.stderr
        #expect(terminal.status == 0, "\(screen)")
        #expect(screen.contains("checked 1/6"), "\(screen)")
        #expect(screen.contains("checked 5/6"), "\(screen)")
        #expect(screen.contains("\r\u{1B}[K"), "the progress line is cleared before each result")
        #expect(screen.components(separatedBy: "TRUSTED").count - 1 == 6)
    }
}
