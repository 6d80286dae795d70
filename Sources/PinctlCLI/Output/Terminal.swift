import FileAccess
import FoundationEssentials
import Glibc
import TextSyntax

/// Where output goes, and whether it may be coloured.
public enum Terminal {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    static let colourAllowed = ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    /// Text from outside — certificate names, server messages, file names, what the user typed — made safe to print:
    /// every control character (line breaks included), C1 control, bidirectional override and byte that is not
    /// UTF-8 is shown as an escape, so none can move the cursor, clear the screen, retitle the window or forge a
    /// line; and, since a GitHub Actions runner reads every line a step prints, no `##[` and no leading `::` reach it
    /// as a workflow command (`RunnerCommands`): their first `#` or `:` is shown as `\x23` or `\x3A`. Idempotent:
    /// escapes are printable and a backslash is left as it is.
    public static func safe(_ text: String) -> String {
        // Most text has nothing to escape, and copying it scalar by scalar is slow: about a millisecond for the 60
        // lines of `check --config` on every platform version.
        guard text.unicodeScalars.contains(where: { escape($0) != nil }) else {
            return RunnerCommands.neutralised(text, hash: "\\x23", colon: "\\x3A")
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) {
                result += escaped
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return RunnerCommands.neutralised(result, hash: "\\x23", colon: "\\x3A")
    }

    /// How `safe` shows `scalar`; nil when it is shown as it is.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        if let byte = PathBytes.escapedByte(scalar) { return "\\x" + Hex.number(UInt32(byte), digits: 2) }
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F: return "\\x" + Hex.number(scalar.value, digits: 2)
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{" + Hex.number(scalar.value, digits: 1) + "}"
        default: return nil
        }
    }

    /// Writes `message` to stderr as it is: callers pass text they made safe.
    static func printError(_ message: String) {
        write(Array((message.hasSuffix("\n") ? message : message + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes `bytes` to the descriptor at once, past stdio's buffer, as far as it takes them: a closed pipe (EPIPE,
    /// SIGPIPE being ignored) ends the writing silently, as it ended FileHandle's.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    /// A document (an export) on stdout: as it is into a file or a pipe, whose reader wants its bytes; on a terminal,
    /// each line made safe (tabs kept), so a value holding a control sequence or a bidirectional override cannot act
    /// on the terminal.
    static func writeDocument(_ bytes: [UInt8]) {
        guard stdoutIsTerminal else { return write(bytes, to: STDOUT_FILENO) }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { safe(String($0)) }
                .joined(separator: "\t")
        }
        write(Array(text.joined(separator: "\n").utf8), to: STDOUT_FILENO)
    }

    /// `pinctl: message`, the one prefix every error line carries; the message is made safe.
    static func error(_ message: String) {
        printError("pinctl: " + safe(message))
    }

    /// `warning: message` on stderr, the message made safe.
    static func warning(_ message: String) {
        printError(paint("warning:", .yellow, stream: STDERR_FILENO) + " " + safe(message))
    }

    enum Colour: String {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
    }

    /// `text`, made safe, in `colour` when the stream is a terminal that allows colour.
    static func paint(_ text: String, _ colour: Colour, stream: Int32 = STDOUT_FILENO) -> String {
        let terminal = stream == STDOUT_FILENO ? stdoutIsTerminal : stderrIsTerminal
        guard terminal, colourAllowed else { return safe(text) }
        return "\u{1B}[\(colour.rawValue)m\(safe(text))\u{1B}[0m"
    }
}
